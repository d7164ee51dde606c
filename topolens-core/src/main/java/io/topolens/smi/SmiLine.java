package io.topolens.smi;

/**
 * Turns one raw input line into the text the reader matches: {@code cat -A} notation decoded
 * ({@code ^I} tab, {@code ^[} escape, a final {@code $}), ANSI escape sequences (the underline
 * nvidia-smi puts on matrix headers) and carriage returns removed, trailing blanks cut.
 */
final class SmiLine {
  private static final char ESC = 0x1b;

  private SmiLine() {}

  static String clean(String raw) {
    String s = raw;
    if (s.endsWith("$") && (s.contains("^I") || s.contains("^["))) {
      s = s.substring(0, s.length() - 1).replace("^I", "\t").replace("^[", "" + ESC);
      s = s.replace("^M", "");
    }
    if (s.indexOf(ESC) >= 0 || s.indexOf('\r') >= 0) {
      s = stripEscapes(s);
    }
    return s.stripTrailing();
  }

  /** Removes CSI sequences ({@code ESC [ params final}), other two-byte escapes and CRs. */
  private static String stripEscapes(String s) {
    StringBuilder out = new StringBuilder(s.length());
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '\r') {
        i++;
      } else if (c == ESC) {
        i++;
        if (i < s.length() && s.charAt(i) == '[') {
          i++;
          while (i < s.length() && s.charAt(i) >= 0x20 && s.charAt(i) <= 0x3f) {
            i++;
          }
          while (i < s.length() && s.charAt(i) >= 0x20 && s.charAt(i) <= 0x2f) {
            i++;
          }
          if (i < s.length() && s.charAt(i) >= 0x40 && s.charAt(i) <= 0x7e) {
            i++;
          }
        } else if (i < s.length()) {
          i++;
        }
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
