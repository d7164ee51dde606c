package io.topolens.bench;

import java.util.Locale;

/**
 * The collectives nccl-tests measures, one per {@code *_perf} binary, with what each prints: how
 * its bus bandwidth is derived from the algorithm bandwidth ({@code *GetBw} in nccl-tests' {@code
 * src/*.cu}, doc/PERFORMANCE.md), whether its {@code count} column is per rank (size = count x type
 * size x nranks), which {@code redop} it prints and whether it prints a root.
 */
public enum Collective {
  ALL_REDUCE("all_reduce_perf", Factor.TWO_N_MINUS_1_OVER_N, false, Redop.OPERATION, false),
  ALL_GATHER("all_gather_perf", Factor.N_MINUS_1_OVER_N, true, Redop.NONE, false),
  REDUCE_SCATTER("reduce_scatter_perf", Factor.N_MINUS_1_OVER_N, true, Redop.OPERATION, false),
  BROADCAST("broadcast_perf", Factor.ONE, false, Redop.NONE, true),
  REDUCE("reduce_perf", Factor.ONE, false, Redop.OPERATION, true),
  ALLTOALL("alltoall_perf", Factor.N_MINUS_1_OVER_N, true, Redop.NONE, false),
  ALLTOALLV("alltoallv_perf", Factor.N_MINUS_1_OVER_N, true, Redop.NONE, false),
  SENDRECV("sendrecv_perf", Factor.ONE, false, Redop.OPERATION, false),
  SCATTER("scatter_perf", Factor.N_MINUS_1_OVER_N, true, Redop.NONE, true),
  GATHER("gather_perf", Factor.N_MINUS_1_OVER_N, true, Redop.NONE, true),
  HYPERCUBE("hypercube_perf", Factor.ONE, true, Redop.EMPTY, false),
  BISECTION("bisection_perf", Factor.ONE, false, Redop.OPERATION, false);

  /** How busbw follows from algbw: {@code busbw = algbw x factor(nranks)}. */
  public enum Factor {
    /** {@code 2(n-1)/n}: all_reduce. */
    TWO_N_MINUS_1_OVER_N,
    /** {@code (n-1)/n}: all_gather, reduce_scatter, alltoall(v), scatter, gather. */
    N_MINUS_1_OVER_N,
    /** {@code 1}: broadcast, reduce, sendrecv, hypercube, bisection. */
    ONE
  }

  /** What the {@code redop} column holds. */
  public enum Redop {
    /** The reduction operation ({@code sum}, {@code prod}, ...). */
    OPERATION,
    /** {@code none}. */
    NONE,
    /** Nothing: the column is blank (hypercube). */
    EMPTY
  }

  private final String testName;
  private final Factor factor;
  private final boolean countPerRank;
  private final Redop redop;
  private final boolean rooted;

  Collective(String testName, Factor factor, boolean countPerRank, Redop redop, boolean rooted) {
    this.testName = testName;
    this.factor = factor;
    this.countPerRank = countPerRank;
    this.redop = redop;
    this.rooted = rooted;
  }

  /** The nccl-tests binary, e.g. {@code all_reduce_perf}. */
  public String testName() {
    return testName;
  }

  public Factor factor() {
    return factor;
  }

  /** Whether the printed size is {@code count x type size x nranks} (count per rank or peer). */
  public boolean countPerRank() {
    return countPerRank;
  }

  public Redop redop() {
    return redop;
  }

  /** Whether the root column holds a rank (broadcast, reduce, scatter, gather) rather than -1. */
  public boolean rooted() {
    return rooted;
  }

  /**
   * busbw / algbw for {@code nranks} ranks, as nccl-tests computes it: {@code 2(n-1)/n} for
   * all_reduce, {@code (n-1)/n} for all_gather, reduce_scatter, alltoall(v), scatter and gather,
   * {@code 1} for the others.
   */
  public double busBwFactor(int nranks) {
    if (nranks < 1) {
      throw new IllegalArgumentException("nranks must be at least 1, not " + nranks);
    }
    return switch (factor) {
      case TWO_N_MINUS_1_OVER_N -> 2.0 * (nranks - 1) / nranks;
      case N_MINUS_1_OVER_N -> (double) (nranks - 1) / nranks;
      case ONE -> 1.0;
    };
  }

  /**
   * The collective of a test binary name: {@code all_reduce_perf}, a path to it ({@code
   * build/all_reduce_perf}), the MPI build's {@code all_reduce_perf_mpi}, or the bare {@code
   * all_reduce}; case is ignored. Null when the name is none of them.
   */
  public static Collective fromTestName(String name) {
    if (name == null) {
      return null;
    }
    String n = name.strip().toLowerCase(Locale.ROOT);
    int slash = Math.max(n.lastIndexOf('/'), n.lastIndexOf('\\'));
    n = n.substring(slash + 1);
    if (n.endsWith(".exe")) {
      n = n.substring(0, n.length() - 4);
    }
    if (n.endsWith("_mpi")) {
      n = n.substring(0, n.length() - 4);
    }
    if (n.endsWith("_perf")) {
      n = n.substring(0, n.length() - 5);
    }
    for (Collective c : values()) {
      if (c.testName.equals(n + "_perf")) {
        return c;
      }
    }
    return null;
  }
}
