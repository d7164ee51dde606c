package io.topolens.report;

import io.topolens.model.PathDetail;
import io.topolens.model.Transport;
import io.topolens.verdict.PathKind;

/**
 * The colour a connection gets on the transport map: the path NCCL used, in the classes a reader
 * tells apart at a glance. Colours are Okabe and Ito's palette, which readers with any common
 * colour-vision deficiency can tell apart; each class also has a letter for print and greyscale.
 */
public enum PathClass {
  P2P("P2P (NVLink or PCIe)", "P", "#0072B2", 0),
  NVLS_COLLNET("NVLS / CollNet", "C", "#CC79A7", 0),
  NET_RDMA("NET over EFA / IB", "R", "#009E73", 2),
  SHM("SHM (host memory)", "S", "#E69F00", 3),
  NET_TCP("NET over TCP sockets", "T", "#D55E00", 4),
  OTHER("not recognised", "?", "#999999", 5);

  private final String label;
  private final String letter;
  private final String colour;
  private final int slowness;

  PathClass(String label, String letter, String colour, int slowness) {
    this.label = label;
    this.letter = letter;
    this.colour = colour;
    this.slowness = slowness;
  }

  public String label() {
    return label;
  }

  public String letter() {
    return letter;
  }

  public String colour() {
    return colour;
  }

  /** The CSS class of this path's cells and legend swatch. */
  public String css() {
    return "p-" + name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** Whether this class is a slower kind of path than {@code other} (the order of PathKind). */
  public boolean slowerThan(PathClass other) {
    return slowness > other.slowness;
  }

  /** The class of a connection NCCL printed; the network's kind comes from verdict.PathKind. */
  public static PathClass of(PathDetail detail) {
    return switch (detail) {
      case PathDetail.P2p p -> P2P;
      case PathDetail.Shm s -> SHM;
      case PathDetail.Net n ->
          PathKind.ofNetPlugin(n.plugin()) == PathKind.TCP ? NET_TCP : NET_RDMA;
      case PathDetail.Collective c ->
          c.transport() == Transport.NVLS || c.transport() == Transport.COLLNET
              ? NVLS_COLLNET
              : OTHER;
      case PathDetail.Unknown u -> OTHER;
    };
  }
}
