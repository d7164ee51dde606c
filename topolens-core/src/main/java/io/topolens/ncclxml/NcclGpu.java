package io.topolens.ncclxml;

import io.topolens.model.Evidence;
import java.util.List;
import java.util.Map;

/**
 * A {@code <gpu>} of an NCCL topology.
 *
 * @param dev the CUDA device index on its host
 * @param sm the compute capability times ten ({@code 90} for Hopper), or null
 * @param rank the rank NCCL gave it in the communicator that dumped the file, or null
 * @param gdr 1 when GPUDirect RDMA is supported, 0 when not, null when not written
 * @param busId the bus id of the enclosing {@code <pci>}, or null
 * @param cpuNumaId the {@code numaid} of the enclosing {@code <cpu>}, or null
 * @param nvlinks its {@code <nvlink>} children, in order
 * @param c2c its {@code <c2c>} children
 * @param attributes every attribute as written
 * @param evidence the element's line
 */
public record NcclGpu(
    int dev,
    Integer sm,
    Integer rank,
    Integer gdr,
    String busId,
    String cpuNumaId,
    List<NcclNvlink> nvlinks,
    List<NcclC2c> c2c,
    Map<String, String> attributes,
    Evidence evidence) {

  /** All its NVLinks, whatever the target. */
  public int nvlinkCount() {
    return nvlinks.stream().mapToInt(NcclNvlink::count).sum();
  }

  /** Its NVLinks to NVSwitches. */
  public int nvswitchLinks() {
    return nvlinks.stream()
        .filter(l -> l.targetKind() == PciClass.NVSWITCH)
        .mapToInt(NcclNvlink::count)
        .sum();
  }
}
