package io.topolens.steps;

import io.topolens.model.LineSample;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLines;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The step times a job's logs hold, each with its framework, how it was derived and its line.
 *
 * @param steps every step time found, warm-up steps included (marked); a step's line text is kept
 *     only for the first step of each time (the one a summary cites), others carry file and line
 * @param lines how many lines of each framework's forms were read, with or without a time
 * @param malformed lines of a recognised form whose numbers could not be read
 */
public record StepTimes(List<StepTime> steps, Map<Framework, Long> lines, LineSample malformed) {

  /** No step-time lines at all. */
  public static final StepTimes NONE =
      new StepTimes(List.of(), Map.of(), new LineSample(0, List.of()));

  public StepTimes {
    // a reader's StepList is kept as it is: compact, and read-only once built
    steps = steps instanceof StepList ? steps : List.copyOf(steps);
    lines =
        lines.isEmpty()
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.EnumMap<>(lines));
  }

  /**
   * Reads files (plain or gzip) and sums up their step times: the entry point for callers that have
   * only paths. Lines naming NCCL are left to the NCCL reader, as in {@code diagnose}.
   *
   * @return the summary, empty when no line gave a step time
   * @throws InputProblem when a file cannot be read ("file: problem")
   */
  public static Optional<StepSummary> read(List<Path> paths) throws InputProblem {
    return readAll(paths).summary();
  }

  /** Reads files (plain or gzip) into their step times. */
  public static StepTimes readAll(List<Path> paths) throws InputProblem {
    StepTimeReader reader = new StepTimeReader();
    for (Path p : paths) {
      LogInput in = new LogInput(p.toString(), p);
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(in.open(), StandardCharsets.UTF_8))) {
        long n = 0;
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          n++;
          // as in diagnose's single pass, where a line naming NCCL is the NCCL reader's
          if (!line.contains("NCCL ")) {
            reader.line(in.name(), n, NcclLines.stripEscapes(line));
          }
        }
      } catch (IOException e) {
        throw new InputProblem(in.name() + ": cannot read: " + e.getMessage());
      }
    }
    return reader.finish();
  }

  /** Whether any line of a framework's step-time forms was read. */
  public boolean any() {
    return !lines.isEmpty();
  }

  /** The framework with the most lines read, or null when none. */
  public Framework mainFramework() {
    return lines.entrySet().stream()
        .max(
            Map.Entry.<Framework, Long>comparingByValue().thenComparing(e -> -e.getKey().ordinal()))
        .map(Map.Entry::getKey)
        .orElse(null);
  }

  /**
   * The job's step time: over the most direct derivation the logs offer ({@link Derivation} order),
   * of the framework with most such steps; warm-up steps (the first of each run) left out unless
   * nothing else is left.
   */
  public Optional<StepSummary> summary() {
    // counted per group without holding the steps: a log may give millions
    Map<Integer, long[]> groups = new java.util.HashMap<>();
    for (StepTime s : steps) {
      groups.computeIfAbsent(group(s), k -> new long[1])[0]++;
    }
    Optional<Integer> group =
        groups.keySet().stream()
            .min(
                Comparator.<Integer>comparingInt(g -> g / 100)
                    .thenComparingLong(g -> -groups.get(g)[0])
                    .thenComparingInt(g -> g % 100));
    if (group.isEmpty()) {
      return Optional.empty();
    }
    int chosen = group.get();
    int all = (int) groups.get(chosen)[0];
    int warm = 0;
    for (StepTime s : steps) {
      if (group(s) == chosen && s.warmup()) {
        warm++;
      }
    }
    boolean dropWarmup = warm < all;
    double[] sorted = new double[dropWarmup ? all - warm : all];
    int n = 0;
    StepTime first = null;
    for (StepTime s : steps) {
      if (group(s) == chosen) {
        first = first == null ? s : first;
        if (!dropWarmup || !s.warmup()) {
          sorted[n++] = s.seconds();
        }
      }
    }
    Arrays.sort(sorted);
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    // the example: the first kept step of the median step's time, whose line text the list kept
    double middle = sorted[(n - 1) / 2];
    StepTime example = null;
    for (StepTime s : steps) {
      if (group(s) == chosen
          && (!dropWarmup || !s.warmup())
          && Double.compare(s.seconds(), middle) == 0) {
        example = s;
        break;
      }
    }
    return Optional.of(
        new StepSummary(
            median,
            sorted[0],
            sorted[n - 1],
            n,
            first.framework(),
            first.derivation(),
            all - n,
            malformed.count(),
            example.evidence()));
  }

  /** The summary's group of a step: its derivation and framework. */
  private static int group(StepTime s) {
    return s.derivation().ordinal() * 100 + s.framework().ordinal();
  }
}
