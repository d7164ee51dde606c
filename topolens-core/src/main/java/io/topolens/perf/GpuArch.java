package io.topolens.perf;

/**
 * A GPU generation as NCCL's tuning indexes it: the row of its per-architecture caps, the search
 * speeds it uses and its per-NVLink bandwidth.
 *
 * @param sm compute capability times ten (80, 89, 90, 100)
 */
public record GpuArch(int sm) {

  /** From a catalog compute capability such as {@code 9.0}; unknown or null means sm80. */
  public static GpuArch of(String computeCapability) {
    if (computeCapability == null) {
      return new GpuArch(80);
    }
    try {
      return new GpuArch((int) Math.round(Double.parseDouble(computeCapability) * 10));
    } catch (NumberFormatException e) {
      return new GpuArch(80);
    }
  }

  /** Row of NCCL's per-architecture tables: Volta 0, Ampere 1, Hopper 2, Blackwell 3. */
  public int row() {
    return sm >= 100 ? 3 : sm >= 90 ? 2 : sm >= 80 ? 1 : 0;
  }

  /** The search-speed list NCCL uses for this architecture (sm80 stands for all before sm90). */
  public String searchSpeedsId() {
    return "nccl.searchSpeeds." + (sm >= 100 ? "sm100" : sm >= 90 ? "sm90" : "sm80");
  }

  /** The per-NVLink bandwidth constant NCCL uses (ncclTopoNVLinkBw). */
  public String nvlinkId() {
    String key =
        sm >= 100 ? "sm100" : sm >= 90 ? "sm90" : sm == 86 ? "sm86" : sm >= 80 ? "sm80" : "sm70";
    return "nccl.nvlinkGBps." + key;
  }
}
