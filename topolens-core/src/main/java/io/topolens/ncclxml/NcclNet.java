package io.topolens.ncclxml;

import io.topolens.model.Evidence;
import java.util.Map;

/**
 * A {@code <net>} of an NCCL topology: one network device NCCL can use (an IB/RoCE port, a socket
 * interface, a plugin device).
 *
 * @param name the device name ({@code mlx5_0}, {@code eth0})
 * @param dev NCCL's network device index, or null
 * @param speedMbps the {@code speed} in Mb/s as written, or null
 * @param port the port number, or null
 * @param guid the port GUID as written, or null
 * @param maxConn the {@code maxconn}, or null
 * @param gdr 1 when GPUDirect RDMA is supported, 0 when not, null when not written
 * @param latency the {@code latency} in microseconds, or null
 * @param coll 1 when the device supports collective offload (CollNet/SHARP), or null
 * @param busId the bus id of the nearest enclosing {@code <pci>}, or null (a virtual NIC hangs
 *     directly off a CPU)
 * @param cpuNumaId the {@code numaid} of the enclosing {@code <cpu>}, or null
 * @param attributes every attribute as written (newer NCCL adds e.g. {@code rail}, {@code plane})
 * @param evidence the element's line
 */
public record NcclNet(
    String name,
    Integer dev,
    Long speedMbps,
    Integer port,
    String guid,
    Integer maxConn,
    Integer gdr,
    Double latency,
    Integer coll,
    String busId,
    String cpuNumaId,
    Map<String, String> attributes,
    Evidence evidence) {

  /**
   * The speed in Gb/s ({@code speed="200000"} is 200), or null when not written or not positive
   * (NCCL then assumes 10 Gb/s).
   */
  public Double speedGbps() {
    return speedMbps == null || speedMbps <= 0 ? null : speedMbps / 1000.0;
  }
}
