package io.topolens.nccl;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What telling known NCCL INFO messages costs ({@link KnownLines#isKnown}), in CPU time of the
 * measuring thread: the messages of a log's NCCL INFO lines that are no trace ({@link
 * TraceLines#at}), each asked six rounds over, each round's CPU seconds printed. Run from the
 * repository root (docs/performance.md): {@code java -cp topolens-bench/target/benchmarks.jar
 * io.topolens.nccl.KnownLinesCost bench-data/nccl-256.log}.
 */
public final class KnownLinesCost {
  private KnownLinesCost() {}

  public static void main(String[] args) throws IOException {
    List<String> messages = new ArrayList<>();
    try (var lines = Files.lines(Path.of(args[0]), StandardCharsets.ISO_8859_1)) {
      lines.forEach(
          l -> {
            int at = l.indexOf("NCCL INFO ");
            if (at >= 0
                && !TraceLines.at(l.getBytes(StandardCharsets.ISO_8859_1), at, l.length())) {
              LineHeader h = LineHeader.parse(l);
              if (h != null) {
                messages.add(h.message());
              }
            }
          });
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int round = 1; round <= 6; round++) {
      long t0 = mx.getCurrentThreadCpuTime();
      int known = 0;
      for (String m : messages) {
        known += KnownLines.isKnown(m) ? 1 : 0;
      }
      System.out.printf(
          "round %d: %d messages, %d known: %.3f s CPU%n",
          round, messages.size(), known, (mx.getCurrentThreadCpuTime() - t0) / 1e9);
    }
  }
}
