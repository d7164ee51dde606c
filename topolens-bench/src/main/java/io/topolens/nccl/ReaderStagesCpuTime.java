package io.topolens.nccl;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The thread CPU time one call of a {@link ReaderStages} benchmark takes, for a machine whose other
 * load makes JMH's wall-clock times useless (a shared 2-core box at load 15): time slicing adds to
 * wall time, not to the thread's CPU time. Run from the repository root: {@code java -cp
 * topolens-bench/target/benchmarks.jar io.topolens.nccl.ReaderStagesCpuTime skipNonNccl 30 200}
 * (stage, rounds, calls per round); prints the minimum, median and maximum over the rounds.
 */
public final class ReaderStagesCpuTime {
  private ReaderStagesCpuTime() {}

  public static void main(String[] args) {
    ReaderStages stages = new ReaderStages();
    stages.setUp();
    Map<String, Supplier<Object>> byName =
        Map.of(
            "skipNonNccl", stages::skipNonNccl,
            "skipNonNcclWithStepNeedles", stages::skipNonNcclWithStepNeedles,
            "parseNcclSlice", stages::parseNcclSlice,
            "findLines", stages::findLines);
    Supplier<Object> stage = byName.get(args[0]);
    if (stage == null) {
      System.err.println("stages: " + byName.keySet());
      System.exit(2);
    }
    int rounds = Integer.parseInt(args[1]);
    int calls = Integer.parseInt(args[2]);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int kept = 0;
    for (int i = 0; i < calls * 3; i++) { // warm-up: the JIT's optimised code
      kept += stage.get() == null ? 0 : 1;
    }
    double[] micros = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long start = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < calls; i++) {
        kept += stage.get() == null ? 0 : 1;
      }
      micros[r] = (threads.getCurrentThreadCpuTime() - start) / 1e3 / calls;
    }
    Arrays.sort(micros);
    System.out.printf(
        "%s: CPU us per call min %.1f, median %.1f, max %.1f (%d rounds of %d calls, %d results)%n",
        args[0], micros[0], micros[rounds / 2], micros[rounds - 1], rounds, calls, kept);
  }
}
