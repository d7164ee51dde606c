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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The step times a job's logs hold, each with its framework, how it was derived and its line.
 *
 * @param steps every step time found, warm-up steps included (marked)
 * @param lines how many lines of each framework's forms were read, with or without a time
 * @param malformed lines of a recognised form whose numbers could not be read
 */
public record StepTimes(List<StepTime> steps, Map<Framework, Long> lines, LineSample malformed) {

  /** No step-time lines at all. */
  public static final StepTimes NONE =
      new StepTimes(List.of(), Map.of(), new LineSample(0, List.of()));

  public StepTimes {
    steps = List.copyOf(steps);
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
    Optional<List<StepTime>> group =
        steps.stream()
            .collect(
                java.util.stream.Collectors.groupingBy(
                    s -> s.derivation().ordinal() * 100 + s.framework().ordinal()))
            .values()
            .stream()
            .min(
                Comparator.<List<StepTime>>comparingInt(g -> g.get(0).derivation().ordinal())
                    .thenComparing(g -> -g.size())
                    .thenComparingInt(g -> g.get(0).framework().ordinal()));
    if (group.isEmpty()) {
      return Optional.empty();
    }
    List<StepTime> chosen = group.get();
    List<StepTime> kept = chosen.stream().filter(s -> !s.warmup()).toList();
    if (kept.isEmpty()) {
      kept = chosen;
    }
    List<StepTime> sorted = new ArrayList<>(kept);
    sorted.sort(Comparator.comparingDouble(StepTime::seconds));
    int n = sorted.size();
    double median =
        n % 2 == 1
            ? sorted.get(n / 2).seconds()
            : (sorted.get(n / 2 - 1).seconds() + sorted.get(n / 2).seconds()) / 2;
    StepTime first = chosen.get(0);
    return Optional.of(
        new StepSummary(
            median,
            sorted.get(0).seconds(),
            sorted.get(n - 1).seconds(),
            n,
            first.framework(),
            first.derivation(),
            chosen.size() - n,
            malformed.count(),
            sorted.get((n - 1) / 2).evidence()));
  }
}
