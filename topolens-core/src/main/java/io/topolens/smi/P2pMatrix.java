package io.topolens.smi;

import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code nvidia-smi topo -p2p} matrix as printed.
 *
 * @param file the input it was read from
 * @param mode the capability, taken from the command line or marker before it ({@link
 *     P2pMode#UNKNOWN} when nothing said)
 * @param modeEvidence the line that named the mode, or null
 * @param gpus the GPUs in order
 * @param cells the cells of every well-formed row: row GPU, then column GPU, then status
 * @param missingRows GPUs whose row is absent or was malformed
 * @param header the header line
 * @param rows the line of every well-formed row
 */
public record P2pMatrix(
    String file,
    P2pMode mode,
    Evidence modeEvidence,
    List<String> gpus,
    Map<String, Map<String, P2pStatus>> cells,
    List<String> missingRows,
    Evidence header,
    Map<String, Evidence> rows) {

  /** One GPU pair and its status (read from the first GPU's row). */
  public record Pair(String a, String b, P2pStatus status) {}

  /** The status from {@code a}'s row towards {@code b}, or null when that row was not read. */
  public P2pStatus status(String a, String b) {
    Map<String, P2pStatus> row = cells.get(a);
    return row == null ? null : row.get(b);
  }

  /**
   * Every GPU pair (first before second) with its status, from the first GPU's row or, when that
   * row is missing, the second's.
   */
  public List<Pair> pairs() {
    List<Pair> out = new ArrayList<>();
    for (int i = 0; i < gpus.size(); i++) {
      for (int j = i + 1; j < gpus.size(); j++) {
        P2pStatus s = status(gpus.get(i), gpus.get(j));
        if (s == null) {
          s = status(gpus.get(j), gpus.get(i));
        }
        if (s != null) {
          out.add(new Pair(gpus.get(i), gpus.get(j), s));
        }
      }
    }
    return out;
  }

  /** How many GPU pairs have each status, in legend order: e.g. {@code {OK=6}}. */
  public Map<P2pStatus, Integer> statusCounts() {
    Map<P2pStatus, Integer> counts = new LinkedHashMap<>();
    for (P2pStatus s : P2pStatus.values()) {
      int n = (int) pairs().stream().filter(p -> p.status() == s).count();
      if (n > 0) {
        counts.put(s, n);
      }
    }
    return counts;
  }

  /** The pairs whose status is anything but OK. */
  public List<Pair> notOk() {
    return pairs().stream().filter(p -> p.status() != P2pStatus.OK).toList();
  }
}
