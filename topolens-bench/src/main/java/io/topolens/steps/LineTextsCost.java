package io.topolens.steps;

import io.topolens.model.LineTexts;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What storing step lines' texts costs ({@link LineTexts#put}, deflated in blocks), in CPU time of
 * the measuring thread: the lines of a log that hold a step needle ({@link StepNeedles#ALL}),
 * clipped as {@link FileSteps} clips them, put into a new store five times, each round's CPU
 * seconds printed. Run from the repository root (docs/performance.md): {@code java -cp
 * topolens-bench/target/benchmarks.jar io.topolens.steps.LineTextsCost bench-data/mixed-256.log}.
 */
public final class LineTextsCost {
  private LineTextsCost() {}

  public static void main(String[] args) throws IOException {
    List<String> texts = new ArrayList<>();
    try (var lines = Files.lines(Path.of(args[0]), StandardCharsets.ISO_8859_1)) {
      lines
          .filter(l -> StepNeedles.ALL.stream().anyMatch(l::contains))
          .map(l -> l.length() > FileSteps.CLIP ? l.substring(0, FileSteps.CLIP - 3) + "..." : l)
          .forEach(texts::add);
    }
    long bytes = texts.stream().mapToLong(String::length).sum();
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int round = 1; round <= 5; round++) {
      long t0 = mx.getCurrentThreadCpuTime();
      LineTexts store = new LineTexts();
      long sum = 0;
      for (String t : texts) {
        sum += store.put(t);
      }
      double s = (mx.getCurrentThreadCpuTime() - t0) / 1e9;
      System.out.printf(
          "round %d: %d texts, %.1f MB: %.3f s CPU (%d)%n",
          round, texts.size(), bytes / 1e6, s, sum & 1);
    }
  }
}
