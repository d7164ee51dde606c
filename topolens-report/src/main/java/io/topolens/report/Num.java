package io.topolens.report;

import java.util.Locale;

/** Numbers as the report writes them: SVG coordinates with one decimal, sizes and rates short. */
public final class Num {
  private Num() {}

  /** A coordinate: one decimal, no trailing ".0" (keeps a 4096-rank map small). */
  public static String px(double v) {
    long tenths = Math.round(v * 10);
    return tenths % 10 == 0
        ? Long.toString(tenths / 10)
        : String.format(Locale.ROOT, "%.1f", tenths / 10.0);
  }

  /** A byte count in binary units: 8 B, 64 KiB, 128 MiB, 4 GiB. */
  public static String bytes(double b) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < units.length - 1) {
      b /= 1024;
      u++;
    }
    return (b == Math.rint(b) ? String.valueOf((long) b) : String.format(Locale.ROOT, "%.1f", b))
        + " "
        + units[u];
  }

  /** A rate or time with three significant digits at most: 362.84 stays 363, 0.0123 stays. */
  public static String sig(double v) {
    if (v == 0) {
      return "0";
    }
    double a = Math.abs(v);
    String s =
        a >= 100
            ? String.format(Locale.ROOT, "%.0f", v)
            : a >= 10
                ? String.format(Locale.ROOT, "%.1f", v)
                : a >= 1
                    ? String.format(Locale.ROOT, "%.2f", v)
                    : String.format(Locale.ROOT, "%.3g", v);
    return s.contains(".") && !s.contains("e") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
  }
}
