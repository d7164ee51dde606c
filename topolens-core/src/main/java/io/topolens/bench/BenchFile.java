package io.topolens.bench;

import io.topolens.model.Evidence;
import java.util.List;

/**
 * What one nccl-tests output file holds: its runs in order (one file may hold several collectives
 * one after another) and an account of every line.
 *
 * @param lines lines read (1 for a one-line JSON file)
 * @param ncclLines NCCL debug lines interleaved with the output ({@code NCCL INFO}, {@code NCCL
 *     WARN}, {@code NCCL version}, NCCL's tuning tables)
 * @param unrecognized lines that are neither nccl-tests output, NCCL lines, launcher noise known to
 *     be harmless (blank lines, command lines) nor rows
 * @param samples the first unrecognized lines
 * @param malformedRows lines inside a results table that are not a complete row (a cut line, a
 *     column missing), and device lines whose rank or device does not fit an int: counted, never
 *     guessed
 * @param malformedSamples the first of them
 */
public record BenchFile(
    String file,
    List<BenchRun> runs,
    long lines,
    long ncclLines,
    long unrecognized,
    List<Evidence> samples,
    long malformedRows,
    List<Evidence> malformedSamples) {

  public BenchFile {
    runs = List.copyOf(runs);
    samples = List.copyOf(samples);
    malformedSamples = List.copyOf(malformedSamples);
  }

  /** A file without malformed rows. */
  public BenchFile(
      String file,
      List<BenchRun> runs,
      long lines,
      long ncclLines,
      long unrecognized,
      List<Evidence> samples) {
    this(file, runs, lines, ncclLines, unrecognized, samples, 0, List.of());
  }
}
