package io.topolens.steps;

/** Numbers as frameworks print them: {@code 1,722}, {@code '2307.9654'}, {@code 1.117136E+01}. */
final class Numbers {
  private Numbers() {}

  /** Powers of ten a double holds exactly. */
  private static final double[] TENS = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
  };

  /** The value, or NaN when the text is not a finite number. */
  static double parse(String s) {
    if (s == null) {
      return Double.NaN;
    }
    double plain = plainDecimal(s);
    if (!Double.isNaN(plain)) {
      return plain;
    }
    String t = s.strip().replace(",", "");
    if (t.length() >= 2
        && (t.charAt(0) == '\'' || t.charAt(0) == '"')
        && t.charAt(t.length() - 1) == t.charAt(0)) {
      t = t.substring(1, t.length() - 1).strip();
    }
    if (t.isEmpty() || !(Character.isDigit(t.charAt(0)) || t.charAt(0) == '.')) {
      return Double.NaN;
    }
    try {
      double v = Double.parseDouble(t);
      return Double.isFinite(v) ? v : Double.NaN;
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  /**
   * The value of a plain decimal of at most 15 digits ({@code 4.32}, {@code 1722}, {@code .5}), or
   * NaN for any other text: its digits as a whole number over a power of ten, both exact in a
   * double, so the one rounding of the division gives what {@link Double#parseDouble} gives (the
   * nearest double), without its general parser. Step-time lines are mostly such numbers.
   */
  static double plainDecimal(String s) {
    return plainDecimal(s, 0, s.length());
  }

  /** {@link #plainDecimal(String)} of {@code s}'s characters {@code [from, to)}. */
  static double plainDecimal(CharSequence s, int from, int to) {
    long digits = 0;
    int count = 0;
    int point = -1;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        digits = digits * 10 + (c - '0');
        count++;
      } else if (c == '.' && point < 0) {
        point = i;
      } else {
        return Double.NaN;
      }
    }
    if (count == 0 || count > 15) {
      return Double.NaN;
    }
    int fraction = point < 0 ? 0 : to - point - 1;
    return digits / TENS[fraction];
  }

  /**
   * {@link #positive(String)} of a line's part {@code [from, to)}, cut at ASCII characters or the
   * line's ends: a plain decimal read in place, any other text decoded first.
   */
  static double positive(StepLine line, int from, int to) {
    double plain = plainDecimal(line, from, to);
    if (Double.isNaN(plain)) {
      return positive(line.text(from, to));
    }
    return plain > 0 ? plain : Double.NaN;
  }

  /**
   * The ASCII digits {@code [from, to)} of a line as a number, as {@link Long#parseLong} reads them
   * (which throws past a long).
   */
  static long digits(StepLine line, int from, int to) {
    if (to - from > 18) {
      return Long.parseLong(line.text(from, to));
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      v = v * 10 + (line.charAt(i) - '0');
    }
    return v;
  }

  /** A positive value, or NaN. */
  static double positive(String s) {
    double v = parse(s);
    return v > 0 ? v : Double.NaN;
  }
}
