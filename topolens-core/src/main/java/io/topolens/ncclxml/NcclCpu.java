package io.topolens.ncclxml;

import io.topolens.model.Evidence;
import java.util.List;
import java.util.Map;

/**
 * A {@code <cpu>} of an NCCL topology: one NUMA node, with the PCI trees under it.
 *
 * @param numaId the {@code numaid} as written ({@code -1} when NCCL could not tell, e.g. in a VM)
 * @param affinity the {@code affinity} CPU mask as written ({@code 0000ffff,ffffffff}), or null
 * @param cpus the CPUs the mask (or a CPU list) names, ascending, or null when there is none
 * @param arch {@code x86_64}, {@code arm64}, {@code ppc64}, or null
 * @param vendor {@code GenuineIntel}, {@code AuthenticAMD}, ..., or null
 * @param familyId the CPUID family, or null
 * @param modelId the CPUID model, or null
 * @param hostHash the {@code host_hash} (differs between hosts in a fused multi-node topology)
 * @param attributes every attribute as written
 * @param evidence the element's line
 */
public record NcclCpu(
    String numaId,
    String affinity,
    List<Integer> cpus,
    String arch,
    String vendor,
    Integer familyId,
    Integer modelId,
    String hostHash,
    Map<String, String> attributes,
    Evidence evidence) {

  /** The NUMA node number, or null when it is {@code -1}, absent or not a number. */
  public Integer numaNode() {
    if (numaId == null) {
      return null;
    }
    try {
      long n = Attributes.parseLong(numaId);
      return n < 0 || n > Integer.MAX_VALUE ? null : (int) n;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
