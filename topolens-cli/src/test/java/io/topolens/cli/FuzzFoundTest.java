package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The inputs the fuzzer (docs/fuzzing.md, bench/fuzz.sh) broke topolens with, minimised: each now
 * ends with its exit code and, for bad input, one stderr line naming the file and line. Before the
 * fixes: an OutOfMemoryError or a minute-long run, or a message naming no file.
 */
class FuzzFoundTest {
  private static final String MB2 = "a".repeat(2 << 20);

  @TempDir Path dir;

  static Stream<Arguments> cases() {
    return Stream.of(
        // seed 3 #120: an edge to rank 2,000,000,000 made the report allocate a row per rank
        Arguments.of(
            "report: a connection to rank 2e9",
            "d.log",
            "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 2000000000[1] via P2P/IPC\n",
            List.of("report", "FILE", "-o", "DIR/out.html"),
            0,
            "topolens: wrote DIR/out.html",
            ""),
        // nranks 2e9: missing-ranks listed every absent rank
        Arguments.of(
            "diagnose: nranks 2e9",
            "c.log",
            "h:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2000000000 cudaDev 0 busId 1000 - Init"
                + " COMPLETE\n",
            List.of("diagnose", "FILE"),
            0,
            null,
            "16 and 1999999983 more of this communicator"),
        // seed 3 #1396: a 10 MB line in a manifest took SnakeYAML a minute
        Arguments.of(
            "lint: a 2 MB line",
            "job.yaml",
            "apiVersion: v1\nkind: " + MB2 + "\n",
            List.of("lint", "FILE"),
            2,
            "topolens: FILE:2: a line of 2097158 characters, more than YAML topolens reads"
                + " (1048576); not YAML",
            ""),
        // seed 3 #1762 as predict's --config
        Arguments.of(
            "predict --config: a 2 MB line",
            "runs.yaml",
            "model: llama-3-8b\nname: " + MB2 + "\n",
            List.of("predict", "--config", "FILE"),
            2,
            "topolens: FILE:2: a line of 2097158 characters, more than YAML topolens reads"
                + " (1048576); not YAML",
            ""),
        // seed 3 #1491: no usable size left the message without the file's name
        Arguments.of(
            "predict --calibrate: no size large enough",
            null,
            CliRun.fixture("fixtures/h200x4/ar-p2p.log"),
            List.of(
                "predict",
                "--catalog",
                "../examples/perf/h200x4-catalog.json",
                "--instance",
                "h200x4-vm",
                "--model",
                "llama-3-8b",
                "--calibrate",
                "FILE",
                "--calibrate-min-bytes",
                "1099511627776"),
            2,
            "topolens: NVLink (FILE): fewer than two sizes of at least 1048576 MiB to fit (run"
                + " nccl-tests up to 1 GiB or more: -b 1M -e 1G -f 2)",
            ""));
  }

  /**
   * @param file the input's name in a fresh folder, or null when {@code content} is a fixture path
   * @param err the only stderr line (FILE and DIR replaced), or null for none expected
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void fuzzFoundInputEndsCleanly(
      String name, String file, String content, List<String> args, int code, String err, String out)
      throws IOException {
    String path = content;
    if (file != null) {
      path = dir.resolve(file).toString();
      Files.writeString(Path.of(path), content, StandardCharsets.UTF_8);
    }
    List<String> argv = new ArrayList<>();
    for (String a : args) {
      argv.add(a.replace("FILE", path).replace("DIR", dir.toString()));
    }

    CliRun r = CliRun.of(argv.toArray(String[]::new));

    assertThat(r.code()).as(r.err()).isEqualTo(code);
    assertThat(r.errLines())
        .isEqualTo(
            err == null
                ? List.of()
                : List.of(err.replace("FILE", path).replace("DIR", dir.toString())));
    assertThat(r.out()).contains(out);
  }
}
