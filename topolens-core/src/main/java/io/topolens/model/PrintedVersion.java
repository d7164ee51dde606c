package io.topolens.model;

/**
 * A version the inputs printed, with its line: NCCL's ({@code NCCL version 2.19.3+cuda11.0}, with
 * or without NCCL's header, or after PyTorch's {@code NCCL error in: ..., NCCL version 2.18.6}),
 * NCCL's as something else names it (a package list, a library path, a framework's query), or the
 * CUDA driver's ({@code NCCL INFO cudaDriverVersion 12020}).
 *
 * @param of whose version it is
 * @param version NCCL's release ({@code 2.19.3}), or the driver's CUDA ({@code 12.2})
 * @param cuda the CUDA of the NCCL build ({@code +cuda11.0}) or of the driver, as CUDA numbers it
 *     (major * 1000 + minor * 10: 11000, 12020); -1 when not printed
 */
public record PrintedVersion(Of of, String version, int cuda, Evidence evidence) {

  /** Whose version a line printed. */
  public enum Of {
    /** NCCL's own version line, or a framework's error quoting the loaded library. */
    NCCL,
    /**
     * NCCL's release as another line names it: {@code nvidia-nccl-cu12==2.18.1} (pip), {@code
     * libnccl.so.2.18.1}, {@code vLLM is using nccl==2.18.1}, torch's {@code (2, 18, 1)}, {@code
     * NCCL_VERSION_CODE 21801}. Installed or found, not necessarily the library a process loaded.
     */
    NCCL_NAMED,
    CUDA_DRIVER
  }

  /** Whether a release names only its major and minor ({@code 2.19}), not its patch. */
  public static boolean partial(String version) {
    return version.split("\\.").length < 3;
  }

  /**
   * Whether a release falls in {@code [from, fixedIn)}; a partial release ({@code 2.19}) when any
   * release of that minor could.
   */
  public static boolean within(String version, String from, String fixedIn) {
    if (!partial(version)) {
      return compare(version, from) >= 0 && compare(version, fixedIn) < 0;
    }
    // 2.19 spans 2.19.0 to 2.19.99: it overlaps the range unless wholly before or after it
    return compare(version + ".999", from) >= 0 && compare(version, fixedIn) < 0;
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
