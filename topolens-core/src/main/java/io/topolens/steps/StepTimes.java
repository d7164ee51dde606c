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
 * @param steps every step time found, warm-up steps included (marked); read-only, held compactly
 *     (each step's evidence is made when it is read)
 * @param lines how many lines of each framework's forms were read, with or without a time
 * @param malformed lines of a recognised form whose numbers could not be read
 */
public record StepTimes(List<StepTime> steps, Map<Framework, Long> lines, LineSample malformed) {

  /** No step-time lines at all. */
  public static final StepTimes NONE =
      new StepTimes(List.of(), Map.of(), new LineSample(0, List.of()));

  public StepTimes {
    // held as compact columns (a log may give millions); a reader's list is read-only once built
    steps = steps instanceof StepList ? steps : StepList.of(steps);
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
    StepList l = (StepList) steps;
    Map<Integer, long[]> groups = new java.util.HashMap<>();
    for (int i = 0; i < l.size(); i++) {
      groups.computeIfAbsent(l.group(i), k -> new long[1])[0]++;
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
    int first = -1;
    for (int i = 0; i < l.size(); i++) {
      if (l.group(i) == chosen) {
        first = first < 0 ? i : first;
        warm += l.warmup(i) ? 1 : 0;
      }
    }
    boolean dropWarmup = warm < all;
    double[] sorted = new double[dropWarmup ? all - warm : all];
    int n = 0;
    for (int i = 0; i < l.size(); i++) {
      if (kept(l, i, chosen, dropWarmup)) {
        sorted[n++] = l.seconds(i);
      }
    }
    Arrays.sort(sorted);
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    // the example: the median position's step in a stable sort, i.e. the (m - below)-th kept step
    // of the middle time in log order
    int m = (n - 1) / 2;
    int below = m;
    while (below > 0 && Double.compare(sorted[below - 1], sorted[m]) == 0) {
      below--;
    }
    int example = -1;
    for (int i = 0, seen = 0; example < 0; i++) {
      if (kept(l, i, chosen, dropWarmup) && Double.compare(l.seconds(i), sorted[m]) == 0) {
        example = seen++ == m - below ? i : -1;
      }
    }
    return Optional.of(
        new StepSummary(
            median,
            sorted[0],
            sorted[n - 1],
            n,
            l.framework(first),
            l.derivation(first),
            all - n,
            malformed.count(),
            l.evidence(example)));
  }

  private static boolean kept(StepList l, int i, int group, boolean dropWarmup) {
    return l.group(i) == group && (!dropWarmup || !l.warmup(i));
  }
}
