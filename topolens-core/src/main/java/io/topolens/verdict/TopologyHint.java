package io.topolens.verdict;

import io.topolens.model.Evidence;
import java.util.List;

/**
 * What a topology input says about the GPUs of one node, reduced to what verdicts need.
 *
 * @param nvlink whether every GPU pair is joined by NVLink (NV#)
 * @param summary the pair classes in words, e.g. "NV18 between all 6 GPU pairs"
 * @param evidence the matrix rows that show it
 * @param p2pBlocked what {@code nvidia-smi topo -p2p} says when it reports peer-to-peer not
 *     supported between every GPU pair (read, write or prop), e.g. "topo -p2p prop shows NS (not
 *     supported) on all 1 GPU pair"; null when no such matrix was given or a pair is OK
 */
public record TopologyHint(
    boolean nvlink, String summary, List<Evidence> evidence, String p2pBlocked) {

  public TopologyHint {
    evidence = List.copyOf(evidence);
  }

  /** A hint without {@code topo -p2p} information. */
  public TopologyHint(boolean nvlink, String summary, List<Evidence> evidence) {
    this(nvlink, summary, evidence, null);
  }
}
