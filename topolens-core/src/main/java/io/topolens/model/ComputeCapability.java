package io.topolens.model;

/**
 * A GPU's compute capability as a line names it: PyTorch's {@code sm_86} (8.6), or NCCL 2.3-2.6's
 * {@code Min Comp Cap 8}, which prints the major only.
 *
 * @param major 8 of 8.6
 * @param minor 6 of 8.6, or -1 where the line printed the major only
 */
public record ComputeCapability(int major, int minor) {

  /** The capability of CUDA's architecture name {@code sm_86}, {@code sm_120}; null for another. */
  public static ComputeCapability ofArch(String arch) {
    if (arch == null || !arch.startsWith("sm_")) {
      return null;
    }
    String digits = arch.substring(3);
    if (digits.length() < 2
        || digits.length() > 3
        || !digits.chars().allMatch(Character::isDigit)) {
      return null;
    }
    int n = Integer.parseInt(digits);
    return new ComputeCapability(n / 10, n % 10);
  }

  /**
   * The words a finding names it by: {@code sm_86} as CUDA names the architecture, or {@code
   * compute capability 8 (NCCL's Min Comp Cap)} for the major alone.
   */
  public String words() {
    return minor < 0
        ? "compute capability " + major + " (NCCL's Min Comp Cap)"
        : "sm_" + major + minor;
  }
}
