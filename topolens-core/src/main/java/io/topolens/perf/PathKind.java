package io.topolens.perf;

import java.util.Locale;

/** A path collectives can take between two GPUs, and the latency class NCCL gives it. */
public enum PathKind {
  NVLINK("nvlink", "NVLink", false),
  PCIE("pcie", "PCIe P2P", false),
  SHM("shm", "SHM", false),
  EFA("efa", "EFA", true),
  IB("ib", "InfiniBand", true),
  TCP("tcp", "TCP sockets", true);

  private final String id;
  private final String label;
  private final boolean network;

  PathKind(String id, String label, boolean network) {
    this.id = id;
    this.label = label;
    this.network = network;
  }

  /** The catalog's path id ({@code nvlink}, {@code pcie}, ...). */
  public String id() {
    return id;
  }

  public String label() {
    return label;
  }

  /** Whether the path goes through a network plugin (it can cross hosts). */
  public boolean network() {
    return network;
  }

  /** NCCL's hardware latency row for this path: nvlink, pci or net. */
  public String latencyClass() {
    return switch (this) {
      case NVLINK -> "nvlink";
      case PCIE, SHM -> "pci";
      default -> "net";
    };
  }

  /**
   * Parses a path or network name: the ids above, plus {@code eni}, {@code ena}, {@code socket} for
   * TCP and {@code nvswitch} for NVLink.
   *
   * @throws IllegalArgumentException naming the accepted words
   */
  public static PathKind parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "nvlink", "nvswitch", "nvl" -> NVLINK;
      case "pcie", "pci" -> PCIE;
      case "shm" -> SHM;
      case "efa" -> EFA;
      case "ib", "infiniband", "roce" -> IB;
      case "tcp", "eni", "ena", "socket", "sockets" -> TCP;
      default ->
          throw new IllegalArgumentException(
              "unknown path \"" + text + "\" (nvlink, pcie, shm, efa, ib, tcp or eni)");
    };
  }
}
