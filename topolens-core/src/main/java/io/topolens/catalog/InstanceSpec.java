package io.topolens.catalog;

import java.util.List;

/**
 * A cloud instance type.
 *
 * @param gpu the {@link GpuSpec#id()} of its GPUs
 * @param nvswitch whether its GPUs are joined by NVSwitch
 * @param efa EFA interfaces ({@code vpc.amazonaws.com/efa} allocatable), 0 for none
 * @param efaGbps the instance's network rate in Gbit/s (EFA when it has EFA, else ENA)
 * @param gpuDirectRdma whether EFA reads and writes GPU memory directly
 */
public record InstanceSpec(
    String type,
    String gpu,
    int gpus,
    boolean nvswitch,
    int efa,
    double efaGbps,
    boolean gpuDirectRdma,
    int vcpus,
    double memoryGiB,
    List<String> sources,
    List<String> notes) {

  public InstanceSpec {
    sources = List.copyOf(sources);
    notes = notes == null ? List.of() : List.copyOf(notes);
  }

  /** The network rate in GB/s (bytes). */
  public double networkGBps() {
    return efaGbps / 8.0;
  }
}
