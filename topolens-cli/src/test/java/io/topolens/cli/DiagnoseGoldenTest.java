package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code topolens diagnose --format json} on every fixture and example gives, byte for byte, the
 * output recorded before the reader was rewritten for speed (issue 14): stdout, exit code and
 * stderr. {@code src/test/resources/golden/README.md} says how the recordings were made; run with
 * {@code -Dtopolens.golden.record=true} to record them again (only from a reader whose output is
 * known to be right).
 */
class DiagnoseGoldenTest {

  /** Where the recordings live, from the CLI module's working directory. */
  static final Path GOLDEN = Path.of("src/test/resources/golden/diagnose");

  private static final boolean RECORD = Boolean.getBoolean("topolens.golden.record");

  /** The folders whose every file is diagnosed alone, relative to the CLI module. */
  private static final List<String> FILE_DIRS =
      List.of(
          "../topolens-core/src/test/resources/fixtures",
          "../topolens-core/src/test/resources/nccl/public",
          "../topolens-core/src/test/resources/public",
          "../topolens-core/src/test/resources/seeds",
          "src/test/resources/logs",
          "../examples/eks-efa-fallback",
          "../examples/g6e-seed001",
          "../examples/h200-bench",
          "../examples/h200-mixed",
          "../examples/h200-p2p",
          "../examples/h200-shm",
          "../examples/h200-sockets");

  /** Folders diagnosed as a whole, as README and examples/README.md run them. */
  private static final List<String> WHOLE_DIRS =
      List.of(
          "../examples/eks-efa-fallback",
          "../examples/g6e-seed001",
          "../examples/h200-bench",
          "../examples/h200-mixed",
          "../examples/h200-p2p",
          "../examples/h200-shm",
          "../examples/h200-sockets",
          "../topolens-core/src/test/resources/fixtures/h200x4/fsdp");

  static Stream<Arguments> inputs() {
    List<Arguments> out = new ArrayList<>();
    for (String dir : FILE_DIRS) {
      try (Stream<Path> files = Files.walk(Path.of(dir))) {
        files
            .filter(Files::isRegularFile)
            .filter(f -> !f.getFileName().toString().equals("README.md"))
            .map(Path::toString)
            .sorted()
            .forEach(f -> out.add(arguments(f)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    WHOLE_DIRS.forEach(d -> out.add(arguments(d)));
    return out.stream();
  }

  /** The recording's name: the input's path under the repository, with "/" kept as folders. */
  static Path golden(String input, String suffix) {
    String rel = input.startsWith("../") ? input.substring(3) : "topolens-cli/" + input;
    return GOLDEN.resolve(rel + suffix);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inputs")
  void diagnoseJsonIsAsRecorded(String input) throws IOException {
    CliRun r = CliRun.of("diagnose", "--format", "json", input);
    String outcome = "exit " + r.code() + "\n" + r.err();

    if (RECORD) {
      Path json = golden(input, ".json");
      Files.createDirectories(json.getParent());
      Files.writeString(json, r.out(), StandardCharsets.UTF_8);
      Files.writeString(golden(input, ".exit"), outcome, StandardCharsets.UTF_8);
    }

    assertThat(r.out())
        .as("stdout of diagnose --format json " + input)
        .isEqualTo(Files.readString(golden(input, ".json"), StandardCharsets.UTF_8));
    assertThat(outcome)
        .as("exit code and stderr of diagnose " + input)
        .isEqualTo(Files.readString(golden(input, ".exit"), StandardCharsets.UTF_8));
  }

  /** The parser threads change nothing: one thread and four give the recorded output. */
  @ParameterizedTest(name = "{0} threads")
  @MethodSource("threadCounts")
  void threadsChangeNothing(String threads) throws IOException {
    String input =
        "../topolens-core/src/test/resources/fixtures/h200x4/verbose/fsdp-coll-subsys.log";
    CliRun r = CliRun.of("diagnose", "--format", "json", "--threads", threads, input);
    assertThat(r.out()).isEqualTo(Files.readString(golden(input, ".json")));
  }

  static Stream<String> threadCounts() {
    return Stream.of("1", "4");
  }
}
