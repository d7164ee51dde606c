package io.topolens.nccl;

import io.topolens.steps.StepTimeReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The parse threads' stage alone on a real log (docs/performance.md, fourth pass): reads MIB MiB of
 * LOG from SKIP MiB on, cuts it into 256 KiB slices at line ends as NcclLogReader does, and parses
 * them ROUNDS times on one thread with the step-time reader's lines wanted (BlockParser.parse, the
 * formats matching each wanted line); prints the thread's CPU time per slice, best and median of
 * the second half of the rounds. CPU time, not wall time, so other processes on the machine matter
 * less. Compile against a jar (BlockParser is package-private, so it is no single-file program):
 *
 * <pre>
 * javac -d /tmp/ps -cp topolens-cli/target/topolens.jar bench/ParseStage.java
 * java -cp /tmp/ps:topolens-cli/target/topolens.jar io.topolens.nccl.ParseStage \
 *     bench-data/mixed-1024.log 32 400 12 LABEL
 * </pre>
 */
public class ParseStage {
  public static void main(String[] a) throws Exception {
    byte[] all = new byte[Integer.parseInt(a[1]) << 20];
    try (var in = Files.newInputStream(Path.of(a[0]))) {
      in.skipNBytes(Long.parseLong(a[2]) << 20);
      in.readNBytes(all, 0, all.length);
    }
    List<byte[]> slices = new ArrayList<>();
    int from = 0;
    while (from < all.length) {
      int to = Math.min(all.length, from + NcclLogReader.SLICE);
      while (to < all.length && all[to - 1] != '\n') {
        to++;
      }
      if (to >= all.length) {
        break; // the last, partial line
      }
      slices.add(Arrays.copyOfRange(all, from, to));
      from = to;
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    OtherLines steps = new StepTimeReader().lines();
    double[] perSlice = new double[Integer.parseInt(a[3])];
    long wanted = 0;
    for (int k = 0; k < perSlice.length; k++) {
      long cpu = mx.getCurrentThreadCpuTime();
      for (byte[] s : slices) {
        wanted += BlockParser.parse(s, s.length, steps).other().size();
      }
      perSlice[k] = (mx.getCurrentThreadCpuTime() - cpu) / 1e6 / slices.size();
    }
    double[] late = Arrays.copyOfRange(perSlice, perSlice.length / 2, perSlice.length);
    Arrays.sort(late);
    System.out.printf(
        "%s: %d slices, CPU ms per slice: best %.3f, median %.3f (wanted lines %d)%n",
        a.length > 4 ? a[4] : "", slices.size(), late[0], late[late.length / 2], wanted);
  }
}
