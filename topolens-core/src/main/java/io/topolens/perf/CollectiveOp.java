package io.topolens.perf;

/**
 * The collectives the cost model prices. nccl-tests' bus-bandwidth factors and NCCL's ring step
 * counts are properties of the collective.
 */
public enum CollectiveOp {
  ALL_REDUCE("all_reduce"),
  ALL_GATHER("all_gather"),
  REDUCE_SCATTER("reduce_scatter"),
  BROADCAST("broadcast"),
  REDUCE("reduce"),
  ALL_TO_ALL("alltoall");

  private final String label;

  CollectiveOp(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** nccl-tests' busbw = algbw x factor (doc/PERFORMANCE.md). */
  public double busBwFactor(int n) {
    return switch (this) {
      case ALL_REDUCE -> 2.0 * (n - 1) / n;
      case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL -> (n - 1.0) / n;
      case BROADCAST, REDUCE -> 1.0;
    };
  }

  /** NCCL's ring step count ({@code nsteps}, tuning.cc:289). */
  public int ringSteps(int n) {
    return switch (this) {
      case ALL_REDUCE -> 2 * (n - 1);
      case ALL_GATHER, REDUCE_SCATTER -> n - 1;
      default -> n;
    };
  }

  /**
   * The collective for a name as nccl-tests or NCCL print it ({@code all_reduce_perf}, {@code
   * AllReduce}, {@code ALL_GATHER}), or null.
   */
  public static CollectiveOp fromName(String name) {
    if (name == null) {
      return null;
    }
    String n = name.replace("_perf", "").replace("_", "").replace("-", "").toLowerCase();
    for (CollectiveOp op : values()) {
      if (op.label.replace("_", "").equals(n)) {
        return op;
      }
    }
    return null;
  }
}
