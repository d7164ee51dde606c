package io.topolens.steps;

/** Numbers as frameworks print them: {@code 1,722}, {@code '2307.9654'}, {@code 1.117136E+01}. */
final class Numbers {
  private Numbers() {}

  /** The value, or NaN when the text is not a finite number. */
  static double parse(String s) {
    if (s == null) {
      return Double.NaN;
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

  /** A positive value, or NaN. */
  static double positive(String s) {
    double v = parse(s);
    return v > 0 ? v : Double.NaN;
  }
}
