package io.topolens.bench;

import io.topolens.model.Evidence;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One nccl-tests run: one collective's preamble, results table and summary.
 *
 * @param collective null when nothing names it and the table fits several collectives ({@link
 *     #collectiveFrom} says which)
 * @param testsVersion from {@code # nccl-tests version 2.19.6 ...}; null when the line is missing
 *     (versions before 2.17.8, excerpts, JSON)
 * @param ncclVersion the library's version code ({@code nccl-library=22902}, or from NCCL's own
 *     {@code NCCL version 2.29.2} line, or the JSON's {@code nccl_version}); null when unknown
 * @param parameters the parameter line ({@code nThread}, {@code nGpus}, {@code minBytes}, {@code
 *     maxBytes}, {@code step}, {@code warmup iters}, {@code iters}, {@code agg iters}, {@code
 *     validation}, {@code graph}, {@code unalign}, as printed), {@code reducedMaxBytes} from {@code
 *     # Reducing maxBytes to N}; JSON config keys are mapped onto the same names
 * @param devices the rank lines (in JSON output, only the first rank of each process)
 * @param nranks the ranks in one communicator; 0 when unknown
 * @param nranksInferred true when nranks comes from the table (busbw/algbw and the collective's
 *     factor, or size/count) rather than from a complete list of rank lines
 * @param avgBusBw {@code # Avg bus bandwidth}; null when not printed
 * @param outOfBounds {@code # Out of bounds values} as printed after the colon ({@code 0 OK}); null
 *     when not printed
 * @param start the run's first line
 * @param collectiveFrom what named or implied the collective (line 0 for the file name)
 * @param nranksFrom what nranks was taken or inferred from
 * @param end where the run stopped: the summary or concluded line, the last row, or the error line;
 *     for an aborted run its text says why
 * @param outOfBoundsAt the {@code # Out of bounds values} line; null when not printed, or in JSON
 */
public record BenchRun(
    String file,
    Collective collective,
    String testsVersion,
    Integer ncclVersion,
    Map<String, String> parameters,
    List<BenchDevice> devices,
    int nranks,
    boolean nranksInferred,
    List<BenchRow> rows,
    Double avgBusBw,
    String outOfBounds,
    Completion completion,
    Evidence start,
    Evidence collectiveFrom,
    Evidence nranksFrom,
    Evidence end,
    Evidence outOfBoundsAt) {

  /** The end of a run that printed its column header and no row after it. */
  public static final String STOPPED_AFTER_HEADER =
      "output stops after the table header, before any row";

  /** Whether the run printed its column header and then nothing: no row, no summary, no error. */
  public boolean stoppedAfterHeader() {
    return rows.isEmpty() && end != null && STOPPED_AFTER_HEADER.equals(end.text());
  }

  public BenchRun {
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    devices = List.copyOf(devices);
    rows = List.copyOf(rows);
  }

  /** A run without the provenance of its collective, nranks and end (built by hand, in tests). */
  public BenchRun(
      String file,
      Collective collective,
      String testsVersion,
      Integer ncclVersion,
      Map<String, String> parameters,
      List<BenchDevice> devices,
      int nranks,
      boolean nranksInferred,
      List<BenchRow> rows,
      Double avgBusBw,
      String outOfBounds,
      Completion completion,
      Evidence start) {
    this(
        file,
        collective,
        testsVersion,
        ncclVersion,
        parameters,
        devices,
        nranks,
        nranksInferred,
        rows,
        avgBusBw,
        outOfBounds,
        completion,
        start,
        start,
        start,
        start,
        null);
  }

  private static final Comparator<BenchRow> BY_OUT_OF_PLACE_BUSBW =
      Comparator.comparingDouble((BenchRow r) -> r.outOfPlace().busBw())
          .thenComparingLong(BenchRow::bytes);

  /** The row with the highest out-of-place busbw (ties: the larger size); null without rows. */
  public BenchRow peak() {
    return rows.stream()
        .filter(r -> r.outOfPlace() != null && !Double.isNaN(r.outOfPlace().busBw()))
        .max(BY_OUT_OF_PLACE_BUSBW)
        .orElse(null);
  }

  /**
   * The GPUs one process of the run drives, {@code nThread} x {@code nGpus} of its parameter line
   * (every rank of a test that no other process joined); 0 when the line is missing.
   */
  public int gpusPerProcess() {
    Long threads = SizeSweep.longValue(parameters.get("nThread"));
    Long gpus = SizeSweep.longValue(parameters.get("nGpus"));
    if (threads == null
        || gpus == null
        || threads < 1
        || gpus < 1
        || threads > Integer.MAX_VALUE
        || gpus > Integer.MAX_VALUE) {
      return 0;
    }
    long n = threads * gpus;
    return n > Integer.MAX_VALUE ? 0 : (int) n;
  }

  /** The row with the largest size (the first such row); null without rows. */
  public BenchRow largest() {
    BenchRow best = null;
    for (BenchRow r : rows) {
      if (best == null || r.bytes() > best.bytes()) {
        best = r;
      }
    }
    return best;
  }

  /** The first row of that size, or null. */
  public BenchRow row(long bytes) {
    for (BenchRow r : rows) {
      if (r.bytes() == bytes) {
        return r;
      }
    }
    return null;
  }
}
