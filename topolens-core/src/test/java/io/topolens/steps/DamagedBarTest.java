package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A progress bar whose count does not fit a long, found by the fuzzer (docs/fuzzing.md, seed 7
 * #1975: a NumberFormatException out of the reader ended diagnose with "parser failed"): counted
 * malformed with its line.
 */
class DamagedBarTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      value = {
        "Lightning total ; Epoch 0:  22%|██▏       | 4/99999999999999999999999 [00:17<01:02,  4.47s/it, loss=10.047, v_num=193315] ; PyTorch Lightning: progress bar count past a long",
        "Trainer step    ; 22%|██▏       | 99999999999999999999999/1722 [00:17<01:02,  4.47s/it]                                   ; Hugging Face Trainer: progress bar count past a long",
      })
  void countPastALongIsMalformed(String name, String bar, String problem) throws Exception {
    Path log = dir.resolve("train.log");
    Files.writeString(log, "step line before\n" + bar.strip() + "\n", StandardCharsets.UTF_8);

    StepTimes t = StepTimes.readAll(List.of(log));

    assertThat(t.malformed().count()).isEqualTo(1);
    assertThat(t.malformed().samples().getFirst().line()).isEqualTo(2);
    assertThat(t.malformed().samples().getFirst().text()).startsWith(problem + ":");
    assertThat(t.steps()).isEmpty();
  }
}
