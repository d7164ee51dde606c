package io.topolens.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.nccl.InputProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A results.json whose variants lack what the report and validate-model use, found by the fuzzer
 * (docs/fuzzing.md, seed 5 #2377 and #2388: a NullPointerException in the report's template, an
 * IllegalArgumentException from a severity of -1): one problem naming the file and the variant.
 */
class ExperimentReadTest {
  private static final String OK =
      "{\"name\": \"p2p\", \"status\": \"ok\", \"transports\": [\"P2P/CUMEM\"], \"findings\":"
          + " [{\"id\": \"p2p-unavailable\", \"severity\": \"warn\"}]}";

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no name (seed 5 #2377)     | {\"status\": \"ok\"}                                                  | variant 2 has no name",
        "blank name                 | {\"name\": \" \", \"status\": \"ok\"}                                  | variant 2 has no name",
        "severity -1 (seed 5 #2388) | {\"name\": \"shm\", \"findings\": [{\"id\": \"x\", \"severity\": -1}]}  | variant 2 (shm): a finding without an id or with a severity other than error, warn or info: x -1",
        "finding without an id      | {\"name\": \"shm\", \"findings\": [{\"severity\": \"warn\"}]}         | variant 2 (shm): a finding without an id or with a severity other than error, warn or info: null warn",
        "null finding               | {\"name\": \"shm\", \"findings\": [null]}                               | variant 2 (shm): a finding without an id or with a severity other than error, warn or info: null",
        "null transport             | {\"name\": \"shm\", \"transports\": [null]}                             | variant 2 (shm): a null transport",
        "null variant               | null                                                                  | variant 2 is null",
      })
  void variantWithoutWhatTheReportNeedsIsNamed(String name, String variant, String problem)
      throws Exception {
    Files.writeString(
        dir.resolve(Experiment.FILE),
        "{\"name\": \"e\", \"variants\": [" + OK + ", " + variant.strip() + "]}");

    assertThatThrownBy(() -> Experiment.read(dir))
        .isInstanceOf(InputProblem.class)
        .hasMessage(dir.resolve(Experiment.FILE) + ": " + problem);
  }

  @ParameterizedTest
  @CsvSource({"warn", "error", "info"})
  void wellFormedVariantsAreRead(String severity) throws Exception {
    Files.writeString(
        dir.resolve(Experiment.FILE),
        "{\"variants\": [" + OK.replace("\"warn\"", "\"" + severity + "\"") + "]}");

    Experiment e = Experiment.read(dir);

    assertThat(e.name()).isEqualTo(dir.getFileName().toString());
    assertThat(e.variants()).hasSize(1);
    assertThat(e.variants().getFirst().findings().getFirst().severity()).isEqualTo(severity);
  }
}
