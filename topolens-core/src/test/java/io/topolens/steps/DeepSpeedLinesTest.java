package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link DeepSpeedLines#throughput} and {@link DeepSpeedLines#logDist} find what the throughput
 * timer's and the {@code steps_per_print} line's regular expressions find: the same groups, or
 * nothing, on the real lines and on lines that bend each part of the forms.
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

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // public/steps/deepspeed-3742-megatron-ds-timers.log, line 6 (DeepSpeed issue 3742)
        "`[2023-07-25 21:03:21,037] [INFO] [logging.py:96:log_dist] [Rank 0] step=35, skipped=0,"
            + " lr=[2.1731931451279077e-06, 2.1731931451279077e-06], mom=[[0.9, 0.95], [0.9, 0.95]]`"
            + " | 0 | 35",
        // bench/make-mixed-log.py's log_dist line
        "`[2024-12-28 16:02:04,111] [INFO] [logging.py:128:log_dist] [Rank 12] step=10, skipped=0,"
            + " lr=[1.988386e-05], mom=[(0.9, 0.999)]` | 12 | 10",
        "`[Rank ] step=1, skipped=0` | |",
        "`[Rank 1] step=, skipped=0` | |",
        "`[Rank 1] step=2 skipped=0` | |",
        "`[Rank 1]  step=2, skipped=0` | |",
        "`[Rank x] step=1, skipped=0 [Rank 3] step=4, skipped=1` | 3 | 4",
        "`[Rank 1] step=2, skipped [Rank 3] step=4, skipped=` | 3 | 4",
        "`[Rank [Rank 7] step=8, skipped=0` | 7 | 8",
        "`[Rank 007] step=0099, skipped=` | 007 | 0099",
        "`[Rank ١] step=2, skipped=0` | |",
        "`[rank 1] step=2, skipped=0` | |",
        "`step=40, skipped=2` | |"
      })
  void findsWhatTheLogDistExpressionFinds(String line, String rank, String step) {
    Matcher m = DeepSpeedLines.STEP.matcher(line);
    String[] expected = m.find() ? new String[] {m.group(1), m.group(2)} : null;

    String[] found = DeepSpeedLines.logDist(line);

    assertThat(found).isEqualTo(expected);
    assertThat(found).isEqualTo(rank == null ? null : new String[] {rank, step});
  }
}
