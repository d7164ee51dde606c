package io.topolens.steps;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The first wall-clock timestamp of a line ({@code 2024-04-04 09:09:53,313}, {@code 2025-06-16
 * 22:30:50.322}, {@code [2024-04-06 02:59:36]}, kubectl's {@code 2024-...T...Z}), as seconds; the
 * frameworks' loggers print them and step times follow from two of them.
 */
final class LogTimestamp {
  private static final Pattern STAMP =
      Pattern.compile(
          "(\\d{4})-(\\d{2})-(\\d{2})[ T](\\d{2}):(\\d{2}):(\\d{2})(?:[.,](\\d{1,9}))?");

  private LogTimestamp() {}

  /** No timestamp in the line. */
  static final long NONE = Long.MIN_VALUE;

  /**
   * Nanoseconds since 1970 (the zone is irrelevant: only differences are used), exact to the
   * printed digits, or {@link #NONE}.
   */
  static long of(String text) {
    Matcher m = STAMP.matcher(text);
    if (!m.find()) {
      return NONE;
    }
    try {
      LocalDateTime t =
          LocalDateTime.of(
              Integer.parseInt(m.group(1)),
              Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3)),
              Integer.parseInt(m.group(4)),
              Integer.parseInt(m.group(5)),
              Integer.parseInt(m.group(6)));
      String digits = m.group(7) == null ? "" : m.group(7);
      long nanos = digits.isEmpty() ? 0 : Long.parseLong((digits + "00000000").substring(0, 9));
      return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L + nanos;
    } catch (RuntimeException e) {
      return NONE;
    }
  }
}
