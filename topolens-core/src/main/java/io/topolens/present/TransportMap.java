package io.topolens.present;

import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.model.Job;
import io.topolens.model.PathDetail;
import io.topolens.model.Transport;
import io.topolens.verdict.PathKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which paths a communicator's rank pairs took, split by where the pair sits: same node, different
 * nodes, or unknown (a rank's log is missing; NCCL's own view decides then).
 */
public record TransportMap(List<Row> rows) {

  /** Where a pair of ranks sits. */
  public enum Placement {
    INTRA_NODE("intra-node"),
    INTER_NODE("inter-node"),
    UNKNOWN("unknown");

    final String label;

    Placement(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * Pairs of one placement over one path.
   *
   * @param path NCCL's text (P2P/CUMEM, NET/Socket/0...)
   * @param pairs distinct unordered rank pairs
   * @param channels channels summed over the pairs' edges
   * @param note what the path is, in a few words
   */
  public record Row(
      Placement placement,
      Transport transport,
      String path,
      int pairs,
      int channels,
      String note) {}

  public static TransportMap of(Job job, Communicator comm) {
    Map<String, Set<String>> pairs = new TreeMap<>();
    Map<String, int[]> channels = new TreeMap<>();
    Map<String, Object[]> meta = new TreeMap<>();
    for (Edge e : comm.edges()) {
      Placement p = placement(job, comm, e);
      String key = p.ordinal() + "|" + e.path().raw();
      int a = Math.min(e.from(), e.to());
      int b = Math.max(e.from(), e.to());
      pairs.computeIfAbsent(key, k -> new HashSet<>()).add(a + "-" + b);
      channels.computeIfAbsent(key, k -> new int[1])[0] += e.channels().size();
      meta.putIfAbsent(key, new Object[] {p, e.path()});
    }
    List<Row> rows = new ArrayList<>();
    for (String key : pairs.keySet()) {
      Placement p = (Placement) meta.get(key)[0];
      PathDetail path = (PathDetail) meta.get(key)[1];
      rows.add(
          new Row(
              p,
              path.transport(),
              path.raw(),
              pairs.get(key).size(),
              channels.get(key)[0],
              note(path)));
    }
    return new TransportMap(rows);
  }

  static Placement placement(Job job, Communicator comm, Edge e) {
    Boolean same = job.sameNode(comm, e.from(), e.to());
    if (same != null) {
      return same ? Placement.INTRA_NODE : Placement.INTER_NODE;
    }
    return Placement.UNKNOWN;
  }

  /**
   * A few words on what a path is; P2P/CUMEM and /read are direct paths, whatever folklore says.
   */
  static String note(PathDetail path) {
    return switch (path) {
      case PathDetail.P2p p ->
          switch (p.mode()) {
            case DIRECT_POINTER -> "direct GPU-to-GPU, same process";
            case CUMEM ->
                "direct GPU-to-GPU, buffers shared via cuMem"
                    + (p.read() ? "; /read = P2P read mode" : "");
            case IPC ->
                "direct GPU-to-GPU, legacy CUDA IPC" + (p.read() ? "; /read = P2P read mode" : "");
            case MNNVL -> "multi-node NVLink";
            case INDIRECT ->
                "indirect: relayed through GPU " + (p.viaRank() == null ? "?" : p.viaRank());
            case OTHER -> "GPU-to-GPU";
          };
      case PathDetail.Shm s -> "through host shared memory";
      case PathDetail.Net n -> net(n);
      case PathDetail.Collective c ->
          c.transport() == Transport.NVLS ? "NVLink SHARP" : "in-network reduction";
      case PathDetail.Unknown u -> "not recognised";
    };
  }

  /** A network path in words: TCP transports say so and have no GPUDirect RDMA to miss. */
  private static String net(PathDetail.Net n) {
    boolean tcp = PathKind.ofNetPlugin(n.plugin()) == PathKind.TCP;
    return (n.isSocket() ? "TCP sockets" : tcp ? n.plugin() + " (TCP)" : n.plugin())
        + (n.gdr() ? ", GPUDirect RDMA" : tcp ? "" : ", no GPUDirect RDMA")
        + (n.proxyRank() != null ? ", PXN via rank " + n.proxyRank() : "");
  }
}
