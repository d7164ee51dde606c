package io.topolens.cli;

import io.topolens.nccl.InputProblem;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as the options write them: {@code 90s}, {@code 30m}, {@code 2h}, {@code 500ms}. */
final class Durations {
  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)?");

  private Durations() {}

  /** {@code text} as a duration; a bare number is seconds. */
  static Duration parse(String option, String text) throws InputProblem {
    Matcher m = DURATION.matcher(text.strip());
    if (!m.matches()) {
      throw new InputProblem(
          option + " must be a duration such as 90s, 30m or 2h, not \"" + text + "\"");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    return switch (unit) {
      case "ms" -> Duration.ofMillis(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      case "d" -> Duration.ofDays(n);
      default -> Duration.ofSeconds(n);
    };
  }
}
