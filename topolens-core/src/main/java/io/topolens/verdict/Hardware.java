package io.topolens.verdict;

import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.InstanceSpec;

/**
 * What is known about the machines a benchmark or job ran on; any part may be null.
 *
 * @param gpu the GPU model (from the logs' device names, the instance type, or --gpu)
 * @param instance the instance type (--instance)
 * @param nicGbps the network rate of one node in Gbit/s when no instance type gives it (--nic-gbps
 *     or NCCL's topology dump)
 * @param nicSource where {@code nicGbps} comes from
 */
public record Hardware(GpuSpec gpu, InstanceSpec instance, Double nicGbps, String nicSource) {

  public static Hardware unknown() {
    return new Hardware(null, null, null, null);
  }

  public Hardware withGpu(GpuSpec g) {
    return new Hardware(g, instance, nicGbps, nicSource);
  }
}
