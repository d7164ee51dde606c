package io.topolens.nccl;

/**
 * A position in a line and the few moves a hand-written line grammar needs. Methods that expect
 * something return false (or -1/null) and leave the position unchanged when it is not there.
 */
final class Cursor {
  private final String s;
  private int pos;

  Cursor(String s, int pos) {
    this.s = s;
    this.pos = pos;
  }

  int pos() {
    return pos;
  }

  boolean atEnd() {
    return pos >= s.length();
  }

  char peek() {
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  void skipSpaces() {
    while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
      pos++;
    }
  }

  /** Consumes {@code literal} if the line continues with it. */
  boolean skip(String literal) {
    if (s.startsWith(literal, pos)) {
      pos += literal.length();
      return true;
    }
    return false;
  }

  /** Consumes {@code c} if it is next. */
  boolean skip(char c) {
    if (pos < s.length() && s.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  /** Reads a decimal integer with an optional minus sign, or returns Long.MIN_VALUE. */
  long integer() {
    int start = pos;
    int i = pos;
    boolean negative = false;
    if (i < s.length() && s.charAt(i) == '-') {
      negative = true;
      i++;
    }
    long value = 0;
    int digits = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c < '0' || c > '9' || digits > 17) {
        break;
      }
      value = value * 10 + (c - '0');
      digits++;
      i++;
    }
    if (digits == 0) {
      pos = start;
      return Long.MIN_VALUE;
    }
    pos = i;
    return negative ? -value : value;
  }

  /** Reads a run of characters up to whitespace, or null at the end of the line. */
  String word() {
    int start = pos;
    while (pos < s.length() && s.charAt(pos) != ' ' && s.charAt(pos) != '\t') {
      pos++;
    }
    return pos == start ? null : s.substring(start, pos);
  }

  /** Reads a decimal number such as 59.827020, or NaN. */
  double decimal() {
    int start = pos;
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if ((c >= '0' && c <= '9') || c == '.' || c == '-' || c == 'e' || c == 'E' || c == '+') {
        pos++;
      } else {
        break;
      }
    }
    if (pos == start) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(s.substring(start, pos));
    } catch (NumberFormatException e) {
      pos = start;
      return Double.NaN;
    }
  }

  /**
   * Reads up to {@code end} and consumes it too, or returns null and consumes nothing where the
   * line holds no {@code end} from here.
   */
  String until(char end) {
    int close = s.indexOf(end, pos);
    if (close < 0) {
      return null;
    }
    String read = s.substring(pos, close);
    pos = close + 1;
    return read;
  }

  String rest() {
    return pos >= s.length() ? "" : s.substring(pos);
  }
}
