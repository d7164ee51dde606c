package io.topolens.nccl;

import io.topolens.steps.StepTimeReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The needle searches of the parse threads alone (docs/performance.md, tenth pass): reads the first
 * MIB MiB of LOG, cuts 256 KiB slices at line ends and asks about every line, ROUNDS times on one
 * thread, what STAGE names: {@code lines} (finding line ends only), {@code finder} (the step-time
 * reader's needles and marks, Needles.Finder) or {@code filter} (the line filter's needles after
 * NCCL's, NeedleSet); prints the thread's CPU time per round and a checksum of every answer, the
 * same for two builds that answer alike. Compile against a build's jar, run with that jar:
 *
 * <pre>
 * javac -d /tmp/np -cp topolens-cli/target/topolens.jar bench/NeedlePasses.java
 * java -cp /tmp/np:topolens-cli/target/topolens.jar io.topolens.nccl.NeedlePasses \
 *     bench-data/mixed-1024.log 256 finder 4
 * </pre>
 */
public class NeedlePasses {
  public static void main(String[] a) throws Exception {
    byte[] all = new byte[Integer.parseInt(a[1]) << 20];
    try (var in = Files.newInputStream(Path.of(a[0]))) {
      all = Arrays.copyOf(all, in.readNBytes(all, 0, all.length));
    }
    List<byte[]> slices = new ArrayList<>();
    for (int from = 0; from < all.length; ) {
      int to = Math.min(all.length, from + (256 << 10));
      while (to < all.length && all[to - 1] != '\n') {
        to++;
      }
      slices.add(Arrays.copyOfRange(all, from, to));
      from = to;
    }
    String stage = a[2];
    List<String> steps = new StepTimeReader().lines().searched();
    NeedleSet filter = new NeedleSet(Needles.ALL.subList(2, Needles.ALL.size()));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int round = 0; round < Integer.parseInt(a[3]); round++) {
      long cpu = threads.getCurrentThreadCpuTime();
      long sum = 0;
      for (byte[] s : slices) {
        String block = new String(s, StandardCharsets.ISO_8859_1);
        Needles.Finder finder = stage.equals("finder") ? new Needles.Finder(block, steps) : null;
        NeedleSet.Hits hits = stage.equals("filter") ? filter.lines(s, block) : null;
        for (int start = 0; start < block.length(); ) {
          int end = block.indexOf('\n', start);
          end = end < 0 ? block.length() : end;
          long answer = finder != null ? finder.which(start, end) : hits != null ? hits.first(start, end) : end;
          sum = sum * 31 + answer;
          start = end + 1;
        }
      }
      System.out.printf(
          "%s round %d: %.3f s CPU, checksum %d%n",
          stage, round, (threads.getCurrentThreadCpuTime() - cpu) / 1e9, sum);
    }
  }
}
