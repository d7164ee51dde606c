package io.topolens.nccl;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What some needles of the line filter cost, in CPU time of the measuring thread (steadier than
 * JMH's wall time on a machine other builds load): one {@link NeedleSet} scan of {@link
 * ReaderStages}' mixed slice with the filter's needles ({@code Needles.ALL} after NCCL's two) less
 * the needles named, with each of them added alone, and with all of them; two rounds, each list's
 * minimum and median of 30 batches of 30 scans after 300 to warm up. Run from the repository root
 * (docs/performance.md): {@code java -cp topolens-bench/target/benchmarks.jar
 * io.topolens.nccl.NeedleCost 'Nccl error' 'GLOBAL_RANK: '}; {@code --failure-texts} alone names
 * the needles of NCCL's failure texts as one group.
 */
public final class NeedleCost {
  private NeedleCost() {}

  /** The argument that names, as one group, the needles of NCCL's failure texts. */
  static final String FAILURE_TEXTS = "--failure-texts";

  /** The needles Needles.ALL takes from NCCL's failure texts (those after the filter's own). */
  private static List<String> failureNeedles() {
    List<String> needles =
        NcclFailureTexts.ALL.stream().map(NcclFailureTexts.Text::needle).distinct().toList();
    return Needles.ALL.stream().skip(2).filter(needles::contains).toList();
  }

  public static void main(String[] args) {
    ReaderStages stages = new ReaderStages();
    stages.setUp();
    byte[] slice = stages.mixedSlice;
    List<String> all = Needles.ALL.subList(2, Needles.ALL.size());
    boolean texts = args.length == 1 && args[0].equals(FAILURE_TEXTS);
    List<String> named = texts ? failureNeedles() : List.of(args);
    if (!all.containsAll(named)) {
      System.err.println("NeedleCost: not a needle of Needles.ALL: " + named);
      System.exit(2);
    }
    List<String> without = new ArrayList<>(all);
    without.removeAll(named);
    List<String> labels = new ArrayList<>(List.of("without them"));
    List<List<String>> lists = new ArrayList<>(List.of(without));
    for (String n : texts ? List.<String>of() : named) {
      List<String> one = new ArrayList<>(without);
      one.add(n);
      lists.add(one);
      labels.add("with " + n);
    }
    lists.add(all);
    labels.add("with all (Needles.ALL)");
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int round = 1; round <= 2; round++) {
      for (int k = 0; k < lists.size(); k++) {
        NeedleSet set = new NeedleSet(lists.get(k));
        for (int i = 0; i < 300; i++) {
          set.scan(slice, 0, slice.length);
        }
        double[] micros = new double[30];
        for (int j = 0; j < micros.length; j++) {
          long t0 = mx.getCurrentThreadCpuTime();
          for (int i = 0; i < 30; i++) {
            set.scan(slice, 0, slice.length);
          }
          micros[j] = (mx.getCurrentThreadCpuTime() - t0) / 30 / 1000.0;
        }
        Arrays.sort(micros);
        System.out.printf(
            "round %d  %-45s min %7.1f  median %7.1f us CPU per slice%n",
            round, labels.get(k), micros[0], micros[micros.length / 2]);
      }
    }
  }
}
