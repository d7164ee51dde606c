package io.topolens.bench;

import java.util.regex.Pattern;

/**
 * One half of a result row (out-of-place or in-place).
 *
 * @param timeUs the {@code time} column in microseconds ({@code cputime} with {@code -C})
 * @param algBw the {@code algbw} column in GB/s (10^9 bytes per second)
 * @param busBw the {@code busbw} column in GB/s
 * @param wrong the {@code #wrong} column as printed: a count ({@code 0}), {@code N/A} when the
 *     check was off ({@code -c 0}) or not supported in place, or the old {@code error} column's
 *     float ({@code 5e-07})
 */
public record BenchResult(double timeUs, double algBw, double busBw, String wrong) {

  private static final Pattern INTEGER = Pattern.compile("\\d+");

  /** {@code %g} of a count of at least 10^6: a mantissa with a decimal point, or 1 digit, e+06.. */
  private static final Pattern LARGE_COUNT =
      Pattern.compile("(\\d\\.\\d+e\\+\\d\\d+)|(\\de\\+(0[6-9]|[1-9]\\d))");

  /**
   * The number of wrong elements; null when the check was off ({@code N/A}) or the column is the
   * old {@code error} float. nccl-tests prints the count with {@code %6g}, so counts below 10^6 are
   * plain integers and larger ones {@code 1.23457e+06} (rounded to 6 digits); the old column prints
   * {@code %5.0le}: {@code 0e+00}, {@code 5e-07}. A one-digit mantissa with an exponent of 6 or
   * more can only be a count, one below 6 only the old error.
   */
  public Long wrongCount() {
    if (wrong == null) {
      return null;
    }
    String w = wrong.strip();
    if (INTEGER.matcher(w).matches()) {
      try {
        return Long.parseLong(w);
      } catch (NumberFormatException e) {
        return null;
      }
    }
    if (LARGE_COUNT.matcher(w).matches()) {
      return Math.round(Double.parseDouble(w));
    }
    return null;
  }
}
