package io.topolens.verdict;

import java.util.Locale;

/** How topolens writes rates and sizes. */
public final class Numbers {
  private Numbers() {}

  /** 362.84, 450, 12.5: at most two decimals, no trailing zeros. */
  public static String gbps(double v) {
    String s = String.format(Locale.ROOT, "%.2f", v);
    s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
    return s;
  }

  /** 4 GiB, 512 MiB, 8 B, 33553920 B (exact binary units only; otherwise bytes). */
  public static String bytes(long b) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    long v = b;
    while (u < units.length - 1 && v >= 1024 && v % 1024 == 0) {
      v /= 1024;
      u++;
    }
    return v + " " + units[u];
  }

  /** 81% */
  public static String percent(double ratio) {
    return String.format(Locale.ROOT, "%.0f%%", ratio * 100);
  }
}
