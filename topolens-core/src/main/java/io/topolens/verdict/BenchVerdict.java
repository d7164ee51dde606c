package io.topolens.verdict;

import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import io.topolens.model.Evidence;
import java.util.List;

/**
 * The judgement of one nccl-tests run.
 *
 * @param peak the row with the highest out-of-place busbw, or null when no row completed
 * @param ranOn the path NCCL's log shows, or null when the file has no connection lines
 * @param offered the best path the hardware offers these GPUs, or null when unknown
 * @param expected the expectation the peak was judged against (ranOn, else offered), or null
 * @param ratio peak busbw over the expected rate, or null
 * @param sentence the verdict in one plain sentence (or two)
 * @param evidence the lines behind it: the peak row, the connection lines, the topology rows
 */
public record BenchVerdict(
    BenchRun run,
    BenchRow peak,
    ObservedPath ranOn,
    PathKind offered,
    Expectation expected,
    Double ratio,
    Grade grade,
    String sentence,
    List<Evidence> evidence) {

  public BenchVerdict {
    evidence = List.copyOf(evidence);
  }

  /** A run nothing could be judged against: only its peak (if any), the reason and evidence. */
  public static BenchVerdict unjudged(
      BenchRun run, BenchRow peak, String sentence, List<Evidence> evidence) {
    return new BenchVerdict(run, peak, null, null, null, null, Grade.UNJUDGED, sentence, evidence);
  }

  public double peakBusBw() {
    return peak == null ? 0 : peak.outOfPlace().busBw();
  }
}
