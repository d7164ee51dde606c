package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link LogTimestamp#of} finds what {@link LogTimestamp#STAMP}'s first match gives (the regular
 * expression it replaced, read as before), on every line of the step logs and on lines that bend
 * each part of the form.
 */
class LogTimestampTest {

  /** The reading before: the expression's first match, its groups parsed. */
  private static long byExpression(String text) {
    Matcher m = LogTimestamp.STAMP.matcher(text);
    if (!m.find()) {
      return LogTimestamp.NONE;
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
      return LogTimestamp.NONE;
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "`[2023-07-25 21:03:21,037] [INFO] [logging.py:96:log_dist] [Rank 0] step=35` | 1690319"
            + "001037000000",
        "`[rank0]:[titan] 2025-06-16 22:30:50,322 - root - INFO - step: 200` | 1750113050322000000",
        "`[2024-04-06 02:59:36] iteration 43/ 100 |` | 1712372376000000000",
        "`2024-12-28T16:05:31.123456789Z x` | 1735401931123456789",
        "`2024-12-28T16:05:31.1234567891Z` | 1735401931123456789",
        "`2024-12-28 16:05:31.` | 1735401931000000000",
        "`2024-12-28 16:05:31,x` | 1735401931000000000",
        "`2024-12-28 16:05:3` | ",
        "`12024-12-28 16:05:31` | 1735401931000000000",
        "`-2024-12-28 16:05:31` | 1735401931000000000",
        "`2024-1-28 16:05:31 2024-12-29 00:00:00` | 1735430400000000000",
        "`2024-13-28 16:05:31 2024-12-29 00:00:00` | ",
        "`2024-12-28_16:05:31` | ",
        "`2024-12-28 16-05-31` | ",
        "`2024-12-28 16:05:31` | 1735401931000000000",
        "`1969-12-31 23:59:59` | -1000000000",
        "`٢٠٢٤-12-28 16:05:31` | ",
        "`--2024-12-28 16:05:31--` | 1735401931000000000",
        "`no time here` | "
      })
  void findsWhatTheExpressionFinds(String line, Long nanos) {
    long expected = nanos == null ? LogTimestamp.NONE : nanos;
    assertThat(byExpression(line)).isEqualTo(expected);
    assertThat(LogTimestamp.of(line)).isEqualTo(expected);
  }

  @Test
  void everyLineOfTheStepLogsReadsAsBefore() throws IOException {
    int stamped = 0;
    try (Stream<Path> logs = Files.list(Path.of("src/test/resources/public/steps"))) {
      for (Path p : logs.sorted().toList()) {
        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        for (String l : lines) {
          assertThat(LogTimestamp.of(l)).as(l).isEqualTo(byExpression(l));
          stamped += LogTimestamp.of(l) == LogTimestamp.NONE ? 0 : 1;
        }
      }
    }
    assertThat(stamped).isGreaterThan(50);
  }
}
