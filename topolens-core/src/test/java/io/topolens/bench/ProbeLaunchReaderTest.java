package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.Fixtures;
import io.topolens.nccl.InputProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The probe's launch line, read from real probe outputs of lent machines. */
class ProbeLaunchReaderTest {
  private static final ProbeLaunchReader READER = new ProbeLaunchReader();

  /**
   * The line's numbers are the probe's own: its --json file of the same run holds them unrounded
   * (the line prints two decimals), with the ranks it took the median over.
   */
  @ParameterizedTest
  @ValueSource(strings = {"h100x4-1x4-r1", "h100x2-1x2-r3", "h100x4-2-1x4-r3"})
  void theLineIsWhatTheProbeMeasured(String run) throws Exception {
    Path out = Fixtures.path("perf/probe-launch/" + run + "/rank-0.out");
    JsonNode json =
        new ObjectMapper()
            .readTree(Fixtures.path("perf/probe-launch/" + run + "/probe.json").toFile())
            .path("launch");
    ProbeLaunch l = READER.read(out, run).orElseThrow();
    assertThat(l.kernelUs())
        .isCloseTo(json.path("us_per_op").path("kernel").asDouble(), within(5e-3));
    assertThat(l.ncclUs()).isCloseTo(json.path("us_per_op").path("nccl").asDouble(), within(5e-3));
    assertThat(l.layerUs())
        .isCloseTo(json.path("us_per_op").path("layer").asDouble(), within(5e-3));
    assertThat(l.ranks()).isEqualTo(json.path("ranks_us_per_op").size());
    assertThat(l.rounds()).isEqualTo(json.path("rounds").asInt());
    assertThat(l.ops()).isEqualTo(json.path("ops").asInt());
    assertThat(l.evidence().text()).startsWith("# topolens-probe launch:");
    assertThat(Files.readAllLines(out).get((int) l.evidence().line() - 1).strip())
        .isEqualTo(l.evidence().text());
  }

  /** An older probe's output and nccl-tests' have no launch line: nothing, not an error. */
  @ParameterizedTest
  @ValueSource(strings = {"perf/probe-hops/2x1/rank-0.out", "fixtures/h200x4/ar-sock.log"})
  void noLineNoLaunch(String resource) throws Exception {
    assertThat(READER.read(Fixtures.path(resource), resource)).isEmpty();
  }

  /**
   * A launcher's prefix before the line is passed over; a line cut short, missing an op or with a
   * count beyond an int is an input problem naming the file and line (-1), never dropped unsaid.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "[rank0]: # topolens-probe launch: kernel 7.77 us/op, nccl 16.56 us/op, layer 653.00 us/op;"
            + " median of 1 ranks, each the median of 5 rounds of 200 ops | 653.0",
        "2026-11-26T11:27:40.1Z # topolens-probe launch: kernel 6.60 us/op, nccl 23.81 us/op,"
            + " layer 410.56 us/op; median of 4 ranks, each the median of 5 rounds of 200 ops | 410.56",
        "# topolens-probe launch: kernel 7.77 us/op, nccl 16.56 us/op, layer 653.00 us/op; median"
            + " of 1 ra | -1",
        "# topolens-probe launch: kernel 7.77 us/op, layer 653.00 us/op; median of 1 ranks, each"
            + " the median of 5 rounds of 200 ops | -1",
        "# topolens-probe launch: kernel 7.77 us/op, nccl 16.56 us/op, layer 653.00 us/op; median"
            + " of 1 ranks, each the median of 5 rounds of 99999999999 ops | -1",
      })
  void prefixesAndDamage(String line, double layer, @TempDir Path dir) throws Exception {
    Path f = dir.resolve("rank-0.out");
    Files.write(f, List.of("topolens-probe: 1 ranks, backend nccl", line));
    if (layer < 0) {
      assertThatThrownBy(() -> READER.read(f, "rank-0.out"))
          .isInstanceOf(InputProblem.class)
          .hasMessage(
              "rank-0.out:2: the probe's launch line is cut short or lacks an op (kernel, nccl,"
                  + " layer): "
                  + line);
    } else {
      var read = READER.read(f, "rank-0.out");
      assertThat(read.orElseThrow().layerUs()).isEqualTo(layer);
      assertThat(read.orElseThrow().evidence().line()).isEqualTo(2);
    }
  }

  @Test
  void gzippedOutputIsRead(@TempDir Path dir) throws Exception {
    Path src = Fixtures.path("perf/probe-launch/h100x2-1x2-r3/rank-0.out");
    Path gz = dir.resolve("rank-0.out.gz");
    try (var o = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
      Files.copy(src, o);
    }
    assertThat(READER.read(gz, "gz").orElseThrow().layerUs())
        .isEqualTo(READER.read(src, "plain").orElseThrow().layerUs());
  }
}
