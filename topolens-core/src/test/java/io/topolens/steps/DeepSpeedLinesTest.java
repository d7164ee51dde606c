package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link DeepSpeedLines#throughput} finds what the throughput timer's regular expression finds: the
 * same groups, or nothing, on the real line and on lines that bend each part of the form.
 */
class DeepSpeedLinesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // public/steps/deepspeed-3742-megatron-ds-timers.log, line 1 (DeepSpeed issue 3742)
        "`[2023-07-25 21:03:17,269] [INFO] [timer.py:215:stop] epoch=0/micro_step=34/global_step=34,"
            + " RunningAvgSamplesPerSec=7.864669709950182, CurrSamplesPerSec=8.009124183052817,"
            + " MemAllocated=4.3GB, MaxMemAllocated=12.56GB` | 34 | 8.009124183052817",
        "`epoch=0/micro_step=2/global_step=2, RunningAvgSamplesPerSec=nan, CurrSamplesPerSec=7.5`"
            + " | 2 | 7.5",
        "`global_step=7, RunningAvgSamplesPerSec=1, CurrSamplesPerSec=` | 7 | ``",
        "`global_step=7, RunningAvgSamplesPerSec=, CurrSamplesPerSec=3, x` | 7 | 3",
        "`global_step=, RunningAvgSamplesPerSec=1, CurrSamplesPerSec=3` | |",
        "`global_step=x1, RunningAvgSamplesPerSec=1, CurrSamplesPerSec=3` | |",
        "`global_step=1, RunningAvgSamplesPerSec=1, 2, CurrSamplesPerSec=3` | |",
        "`global_step=1, RunningAvgSamplesPerSec=1 CurrSamplesPerSec=3` | |",
        "`global_step=9 global_step=12, RunningAvgSamplesPerSec=1, CurrSamplesPerSec=4` | 12 | 4",
        "`global_step=1, RunningAvgSamplesPerSec=1; global_step=5, RunningAvgSamplesPerSec=2,"
            + " CurrSamplesPerSec=6` | 5 | 6",
        "`global_step=١٢, RunningAvgSamplesPerSec=1, CurrSamplesPerSec=3` | |",
        "`no timer here, RunningAvgSamplesPerSec=1, CurrSamplesPerSec=3` | |"
      })
  void findsWhatTheExpressionFinds(String line, String step, String perSecond) {
    Matcher m = DeepSpeedLines.THROUGHPUT.matcher(line);
    String[] expected = m.find() ? new String[] {m.group(1), m.group(2)} : null;

    String[] found = DeepSpeedLines.throughput(line);

    assertThat(found).isEqualTo(expected);
    assertThat(found)
        .isEqualTo(step == null ? null : new String[] {step, perSecond == null ? "" : perSecond});
  }
}
