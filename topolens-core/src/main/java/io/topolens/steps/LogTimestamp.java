package io.topolens.steps;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Pattern;

/**
 * The first wall-clock timestamp of a line ({@code 2024-04-04 09:09:53,313}, {@code 2025-06-16
 * 22:30:50.322}, {@code [2024-04-06 02:59:36]}, kubectl's {@code 2024-...T...Z}), as seconds; the
 * frameworks' loggers print them and step times follow from two of them.
 */
final class LogTimestamp {
  /**
   * The form {@link #of} finds without the regular expression engine (its inlined matcher was one
   * of the biggest methods the JIT compiled); LogTimestampTest holds the two equal.
   */
  static final Pattern STAMP =
      Pattern.compile(
          "(\\d{4})-(\\d{2})-(\\d{2})[ T](\\d{2}):(\\d{2}):(\\d{2})(?:[.,](\\d{1,9}))?");

  private LogTimestamp() {}

  /** No timestamp in the line. */
  static final long NONE = Long.MIN_VALUE;

  /** The length of {@code yyyy-mm-dd hh:mm:ss}. */
  private static final int SECONDS_END = 19;

  /**
   * Nanoseconds since 1970 (the zone is irrelevant: only differences are used), exact to the
   * printed digits, or {@link #NONE}: {@link #STAMP}'s first match, found at the first {@code -}
   * that is the fifth character of the form (every match has one there, so the first such place is
   * the leftmost match), with up to nine digits of a fraction after {@code .} or {@code ,}.
   */
  static long of(String text) {
    return of(StepLine.of(text));
  }

  /** {@link #of(String)} of a line read on its bytes or as its text (digits and ASCII marks). */
  static long of(StepLine text) {
    for (int dash = text.indexOf('-', 4); dash >= 0; dash = text.indexOf('-', dash + 1)) {
      int at = dash - 4;
      if (!stampAt(text, at)) {
        continue;
      }
      int fraction = at + SECONDS_END + 1;
      int end = fraction;
      if (fraction - 1 < text.length()
          && (text.charAt(fraction - 1) == '.' || text.charAt(fraction - 1) == ',')) {
        while (end < text.length() && end - fraction < 9 && digit(text.charAt(end))) {
          end++;
        }
      }
      try {
        LocalDateTime t =
            LocalDateTime.of(
                number(text, at, at + 4),
                number(text, at + 5, at + 7),
                number(text, at + 8, at + 10),
                number(text, at + 11, at + 13),
                number(text, at + 14, at + 16),
                number(text, at + 17, at + 19));
        long nanos = 0;
        if (end > fraction) {
          nanos = number(text, fraction, end);
          for (int d = end - fraction; d < 9; d++) {
            nanos *= 10;
          }
        }
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L + nanos;
      } catch (RuntimeException e) {
        return NONE;
      }
    }
    return NONE;
  }

  /** Whether {@code yyyy-mm-dd[ T]hh:mm:ss} starts at {@code at}, its digits ASCII ones. */
  private static boolean stampAt(StepLine s, int at) {
    if (at + SECONDS_END > s.length()) {
      return false;
    }
    for (int i = 0; i < SECONDS_END; i++) {
      char c = s.charAt(at + i);
      boolean ok =
          switch (i) {
            case 4, 7 -> c == '-';
            case 10 -> c == ' ' || c == 'T';
            case 13, 16 -> c == ':';
            default -> digit(c);
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }

  /** The ASCII digits {@code [from, to)} as a number (at most nine). */
  private static int number(StepLine s, int from, int to) {
    int v = 0;
    for (int i = from; i < to; i++) {
      v = v * 10 + (s.charAt(i) - '0');
    }
    return v;
  }
}
