package io.topolens.model;

/**
 * A version the inputs printed, with its line: NCCL's ({@code NCCL version 2.19.3+cuda11.0}, with
 * or without NCCL's header, or after PyTorch's {@code NCCL error in: ..., NCCL version 2.18.6}) or
 * the CUDA driver's ({@code NCCL INFO cudaDriverVersion 12020}).
 *
 * @param of whose version it is
 * @param version NCCL's release ({@code 2.19.3}), or the driver's CUDA ({@code 12.2})
 * @param cuda the CUDA of the NCCL build ({@code +cuda11.0}) or of the driver, as CUDA numbers it
 *     (major * 1000 + minor * 10: 11000, 12020); -1 when not printed
 */
public record PrintedVersion(Of of, String version, int cuda, Evidence evidence) {

  /** Whose version a line printed. */
  public enum Of {
    NCCL,
    CUDA_DRIVER
  }

  /** CUDA's number as people write it: 11000 is 11.0, 12020 is 12.2. */
  public static String cudaText(int cuda) {
    return cuda / 1000 + "." + (cuda % 1000) / 10;
  }

  /**
   * Orders two dotted releases numerically ({@code 2.18.5} before {@code 2.18.6} before {@code
   * 2.19.3}); a missing part counts as 0.
   */
  public static int compare(String a, String b) {
    String[] x = a.split("\\.");
    String[] y = b.split("\\.");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      int p = i < x.length ? number(x[i]) : 0;
      int q = i < y.length ? number(y[i]) : 0;
      if (p != q) {
        return Integer.compare(p, q);
      }
    }
    return 0;
  }

  private static int number(String s) {
    int n = 0;
    for (int i = 0; i < s.length() && Character.isDigit(s.charAt(i)); i++) {
      n = n * 10 + (s.charAt(i) - '0');
    }
    return n;
  }
}
