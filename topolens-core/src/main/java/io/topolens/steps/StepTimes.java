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
    // each step's group (derivation and framework) and warm-up bit, read once from the list's
    // chunks: millions of steps were counted in a map of boxed groups and read three more times
    // through the list's accessors, on the main thread after the reading
    byte[] kinds = l.summaryKinds();
    long[] counts = new long[StepList.GROUPS];
    for (byte k : kinds) {
      counts[k >> 1]++;
    }
    int chosen = -1;
    for (int g = 0; g < counts.length; g++) {
      // the most direct derivation, then the most steps, then the first framework
      if (counts[g] > 0 && (chosen < 0 || better(g, counts[g], chosen, counts[chosen]))) {
        chosen = g;
      }
    }
    if (chosen < 0) {
      return Optional.empty();
    }
    int all = (int) counts[chosen];
    int warm = 0;
    int first = -1;
    for (int i = 0; i < kinds.length; i++) {
      if (kinds[i] >> 1 == chosen) {
        first = first < 0 ? i : first;
        warm += kinds[i] & 1;
      }
    }
    boolean dropWarmup = warm < all;
    double[] sorted = new double[dropWarmup ? all - warm : all];
    int n = 0;
    for (int i = 0; i < kinds.length; i++) {
      if (kept(kinds, i, chosen, dropWarmup)) {
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
      if (kept(kinds, i, chosen, dropWarmup) && Double.compare(l.seconds(i), sorted[m]) == 0) {
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

  private static boolean kept(byte[] kinds, int i, int group, boolean dropWarmup) {
    return kinds[i] >> 1 == group && (!dropWarmup || (kinds[i] & 1) == 0);
  }

  /**
   * Whether group {@code g} ({@link StepList#summaryKinds}) of {@code n} steps goes before group
   * {@code h} of {@code m}: its derivation is more direct, or the same with more steps, or the same
   * count with an earlier framework.
   */
  private static boolean better(int g, long n, int h, long m) {
    int dg = StepList.groupDerivation(g).ordinal();
    int dh = StepList.groupDerivation(h).ordinal();
    if (dg != dh) {
      return dg < dh;
    }
    if (n != m) {
      return n > m;
    }
    return StepList.groupFramework(g).ordinal() < StepList.groupFramework(h).ordinal();
  }
}
