package io.topolens.verdict;

import io.topolens.model.Evidence;
import java.util.List;

/**
 * What a topology input says about the GPUs of one node, reduced to what verdicts need.
 *
 * @param nvlink whether every GPU pair is joined by NVLink (NV#)
 * @param summary the pair classes in words, e.g. "NV18 between all 6 GPU pairs"
 * @param evidence the matrix rows that show it
 */
public record TopologyHint(boolean nvlink, String summary, List<Evidence> evidence) {

  public TopologyHint {
    evidence = List.copyOf(evidence);
  }
}
