package io.topolens.verdict;

import io.topolens.model.Evidence;
import io.topolens.ncclxml.NcclGpu;
import io.topolens.ncclxml.NcclTopology;
import io.topolens.smi.P2pMatrix;
import io.topolens.smi.P2pMode;
import io.topolens.smi.P2pStatus;
import io.topolens.smi.TopoMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reduces topology inputs to what verdicts need. */
public final class TopologyHints {
  private TopologyHints() {}

  /** From a {@code topo -m} matrix; null when it has fewer than two GPUs or no readable pair. */
  public static TopologyHint of(TopoMatrix m) {
    var pairs = m.gpuPairs();
    if (pairs.isEmpty()) {
      return null;
    }
    boolean nvlink =
        pairs.stream().allMatch(p -> p.link().kind() == io.topolens.smi.LinkKind.NVLINK);
    Map<String, Integer> counts = m.pairClassCounts();
    String summary;
    if (counts.size() == 1) {
      String cls = counts.keySet().iterator().next();
      summary = cls + " between all " + pairs.size() + " GPU pair" + (pairs.size() == 1 ? "" : "s");
    } else {
      List<String> parts = new ArrayList<>();
      counts.forEach((k, v) -> parts.add(k + " on " + v));
      summary = String.join(", ", parts) + " of " + pairs.size() + " GPU pairs";
    }
    List<Evidence> ev = new ArrayList<>();
    if (m.header() != null) {
      ev.add(m.header());
    }
    m.gpus().stream().map(g -> m.rows().get(g)).filter(e -> e != null).limit(2).forEach(ev::add);
    return new TopologyHint(nvlink, summary, ev);
  }

  /**
   * The hint with what {@code topo -p2p} matrices of the same node add: when one for read, write or
   * prop marks every GPU pair as not OK, peer-to-peer is off the table and NCCL stages GPU-to-GPU
   * traffic through host memory. Matrices for NVLink or atomics, or of an unknown capability, say
   * nothing about PCIe P2P and are not used. Returns {@code hint} unchanged when none applies.
   */
  public static TopologyHint withP2p(TopologyHint hint, List<P2pMatrix> p2p) {
    if (hint == null || hint.nvlink() || hint.p2pBlocked() != null) {
      return hint;
    }
    for (P2pMatrix m : p2p) {
      if (m.mode() != P2pMode.READ && m.mode() != P2pMode.WRITE && m.mode() != P2pMode.PROP) {
        continue;
      }
      List<P2pMatrix.Pair> pairs = m.pairs();
      if (pairs.isEmpty() || pairs.stream().anyMatch(p -> p.status() == P2pStatus.OK)) {
        continue;
      }
      Map<P2pStatus, Integer> counts = m.statusCounts();
      List<String> parts = new ArrayList<>();
      counts.forEach((k, v) -> parts.add(k.code() + " (" + k.meaning() + ")"));
      String words =
          "topo -p2p "
              + m.mode().word()
              + " shows "
              + String.join(", ", parts)
              + " on all "
              + pairs.size()
              + " GPU pair"
              + (pairs.size() == 1 ? "" : "s");
      List<Evidence> ev = new ArrayList<>(hint.evidence());
      ev.add(
          m.rows().get(pairs.getFirst().a()) != null
              ? m.rows().get(pairs.getFirst().a())
              : m.header());
      return new TopologyHint(false, hint.summary(), ev, words);
    }
    return hint;
  }

  /** From NCCL's topology dump: NVLink when every GPU has NVLinks (to NVSwitch or peers). */
  public static TopologyHint of(NcclTopology t) {
    if (t.gpus().size() < 2) {
      return null;
    }
    boolean nvlink = t.gpus().stream().allMatch(g -> g.nvlinkCount() > 0);
    int links = t.gpus().stream().mapToInt(NcclGpu::nvlinkCount).min().orElse(0);
    String summary =
        nvlink
            ? t.gpus().size() + " GPUs with " + links + " NVLinks each (NCCL topology dump)"
            : t.gpus().size() + " GPUs, not all with NVLink (NCCL topology dump)";
    List<Evidence> ev = t.gpus().stream().map(NcclGpu::evidence).limit(2).toList();
    return new TopologyHint(nvlink, summary, ev);
  }
}
