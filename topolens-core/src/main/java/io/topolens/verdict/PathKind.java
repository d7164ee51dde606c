package io.topolens.verdict;

import io.topolens.model.PathDetail;
import java.util.Locale;

/**
 * The physical path a transfer between two GPUs takes, best first within a node and then across
 * nodes. {@link #catalogId()} names its entry in the hardware catalog's {@code paths}.
 */
public enum PathKind {
  NVLINK("nvlink", "NVLink/NVSwitch", true),
  PCIE("pcie", "PCIe P2P", true),
  SHM("shm", "SHM through host memory", true),
  EFA("efa", "EFA", false),
  IB("ib", "InfiniBand/RoCE", false),
  TCP("tcp", "TCP sockets", false);

  private final String catalogId;
  private final String label;
  private final boolean intraNode;

  PathKind(String catalogId, String label, boolean intraNode) {
    this.catalogId = catalogId;
    this.label = label;
    this.intraNode = intraNode;
  }

  public String catalogId() {
    return catalogId;
  }

  public String label() {
    return label;
  }

  /** Whether the path only joins GPUs of one node (NVLink, PCIe, SHM). */
  public boolean intraNode() {
    return intraNode;
  }

  /** Whether {@code this} is a slower kind of path than {@code other} for GPUs of one node. */
  public boolean slowerThan(PathKind other) {
    return rank() > other.rank();
  }

  private int rank() {
    return switch (this) {
      case NVLINK -> 0;
      case PCIE -> 1;
      case EFA, IB -> 2;
      case SHM -> 3;
      case TCP -> 4;
    };
  }

  /**
   * The path a connection NCCL printed takes. P2P is NVLink when the GPUs are joined by NVLink
   * (from topology or the catalog), else PCIe; null when the text says nothing physical (an unknown
   * transport).
   */
  public static PathKind of(PathDetail detail, boolean nvlinkBetween) {
    return switch (detail) {
      case PathDetail.P2p p -> nvlinkBetween ? NVLINK : PCIE;
      case PathDetail.Shm s -> SHM;
      case PathDetail.Net n -> ofNetPlugin(n.plugin());
      case PathDetail.Collective c ->
          c.transport() == io.topolens.model.Transport.NVLS ? NVLINK : IB;
      case PathDetail.Unknown u -> null;
    };
  }

  /**
   * The network path behind an NCCL net plugin name (Socket, IB, AWS Libfabric, OFI, FastSocket,
   * GPUDirectTCPX...); a plugin this does not recognise is taken for an RDMA network (IB).
   */
  public static PathKind ofNetPlugin(String plugin) {
    return ofKnownNetPlugin(plugin).orElse(IB);
  }

  /** The network path behind a net plugin name, or empty when the name is none topolens knows. */
  public static java.util.Optional<PathKind> ofKnownNetPlugin(String plugin) {
    String p = plugin.toLowerCase(Locale.ROOT);
    // NCCL's sockets and Google's TCP plugins: FastSocket (google/nccl-fastsocket, host memory
    // only), GPUDirect-TCPX and TCPXO/FasTrak (TCP into GPU memory, no RDMA)
    if (p.equals("socket")
        || p.contains("fastsocket")
        || p.contains("tcpx")
        || p.contains("fastrak")) {
      return java.util.Optional.of(TCP);
    }
    if (p.contains("libfabric") || p.contains("ofi") || p.contains("aws") || p.contains("efa")) {
      return java.util.Optional.of(EFA);
    }
    if (p.contains("ib")) {
      return java.util.Optional.of(IB);
    }
    return java.util.Optional.empty();
  }
}
