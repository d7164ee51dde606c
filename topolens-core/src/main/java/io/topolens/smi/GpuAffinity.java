package io.topolens.smi;

import io.topolens.model.Evidence;
import java.util.List;

/**
 * The affinity columns of one GPU row of {@code nvidia-smi topo -m}. Each value is null when its
 * column is absent (older drivers print fewer columns; {@link TopoMatrix#affinityColumns()} says
 * which) or reads {@code N/A}.
 *
 * @param gpu the row, e.g. {@code GPU0}
 * @param cpuAffinity the CPU Affinity cell as printed, e.g. {@code 0-23,48-71}
 * @param cpus the CPUs that cell names, or null when it is no CPU list
 * @param numaAffinity the NUMA Affinity cell, e.g. {@code 1}
 * @param gpuNumaId the GPU NUMA ID cell (a number on systems whose GPU memory is a NUMA node)
 * @param evidence the row
 */
public record GpuAffinity(
    String gpu,
    String cpuAffinity,
    List<Integer> cpus,
    String numaAffinity,
    String gpuNumaId,
    Evidence evidence) {

  /** The NUMA Affinity as a node number, or null when it is absent, N/A or not one number. */
  public Integer numaNode() {
    if (numaAffinity == null || !numaAffinity.matches("\\d{1,6}")) {
      return null;
    }
    return Integer.parseInt(numaAffinity);
  }
}
