package io.topolens.inputs;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.ScenarioFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * JSON and YAML inputs the fuzzer (docs/fuzzing.md, seed 6) damaged, and the problem each reader
 * now names: the key and what it holds instead of Jackson's {@code Cannot deserialize value of type
 * `java.lang.Integer`}, "not UTF-8 text" instead of {@code java.io.CharConversionException},
 * "empty" instead of {@code No content to map due to end-of-input}.
 */
class JsonMessagesTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "catalog  | {\"instances\": [{\"type\": \"x\", \"gpus\": [1]}]}  | FILE:1: not a topolens catalog: instances[0].gpus: expected a whole number, not a list",
        "catalog  | {\"instances\": [{\"type\": \"x\", \"sources\": 1e400}]} | FILE:1: not a topolens catalog: instances[0].sources: expected a list, not a fraction",
        "catalog  | (empty)                                            | FILE:1: not a topolens catalog: empty",
        "config   | model: llama-3-8b\\nsteps: NB\\n                   | FILE: the file: steps: expected a whole number, not \"NB\"",
        "config   | model: llama-3-8b\\nname: [a]\\n                   | FILE: the file: name: expected text, not a list",
        "config   | model: llama-\\u00ff3\\n                           | FILE:1: not YAML: not UTF-8 text",
        "results  | {\"variants\": [{\"name\": \"a\", \"status\": []}]}   | FILE: not an experiment's results: variants[0].status: expected text, not a list",
      })
  void damagedJsonIsNamedInPlainWords(String reader, String text, String problem) throws Exception {
    String content =
        text.equals("(empty)") ? "" : text.replace("\\n", "\n").replace("\\u00ff", "\u00ff");
    Path file = dir.resolve(reader.equals("results") ? Experiment.FILE : reader + ".json");
    byte[] bytes =
        reader.equals("config")
            ? content.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)
            : content.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Files.write(file, bytes);

    assertThatThrownBy(
            () -> {
              switch (reader) {
                case "catalog" -> HardwareCatalog.load(List.of(file));
                case "config" -> ScenarioFile.read(file);
                default -> Experiment.read(dir);
              }
            })
        .isInstanceOf(InputProblem.class)
        .hasMessage(problem.replace("FILE", file.toString()));
  }
}
