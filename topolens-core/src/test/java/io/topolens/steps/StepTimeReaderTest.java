package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.FieldSource;

/** {@link StepTimeReader#wanted}: a line holding any needle, whichever order they are tried in. */
class StepTimeReaderTest {
  static final java.util.List<String> NEEDLES = StepTimeReader.NEEDLES;

  @ParameterizedTest(name = "{0}")
  @FieldSource("NEEDLES")
  void aLineHoldingOnlyThisNeedleIsWanted(String needle) {
    assertThat(StepTimeReader.wanted("[rank3]: x " + needle + " y")).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      value = {
        "node-1:12:12 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC => false",
        "Loading checkpoint shards: 100% 2/2 [00:03<00:00] => false",
        " 10%|█         | 5/50 [01:23<12:34, 16.7s/it] => true",
        "{'loss': 1.0238, 'learning_rate': 4.9e-05, 'epoch': 0.42} => true",
        "Total optimization steps = 1,722 => true",
        "Training starts at step 1, with local batch size 8 => true"
      })
  void wantedIsWhetherAnyNeedleIsThere(String line, boolean wanted) {
    assertThat(StepTimeReader.wanted(line)).isEqualTo(wanted);
    assertThat(NEEDLES.stream().anyMatch(line::contains)).isEqualTo(wanted);
  }
}
