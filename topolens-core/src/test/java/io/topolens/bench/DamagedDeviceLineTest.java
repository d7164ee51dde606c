package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A {@code Using devices} line whose rank or device does not fit an int, or an {@code NCCL version}
 * line whose numbers do not, found by the fuzzer (docs/fuzzing.md, seed 4 #1739, seed 7 #5274:
 * NumberFormatException out of the reader): counted malformed with its line, the run read without
 * it.
 */
class DamagedDeviceLineTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "rank past an int   | #  Rank  99999999999999999999999 Group  0 Pid   1851 on         vm device  1 [0000:00:07] NVIDIA H100 80GB HBM3 | 1 | 3",
        "device past an int | #  Rank  1 Group  0 Pid   1851 on         vm device  4294967296 [0000:00:07] NVIDIA H100 80GB HBM3       | 1 | 3",
        "an ordinary line   | #  Rank  1 Group  0 Pid   1851 on         vm device  1 [0000:00:07] NVIDIA H100 80GB HBM3                | 0 | 4",
      })
  void damagedDeviceLineIsMalformed(String name, String line, long malformed, int devices)
      throws Exception {
    List<String> all =
        Files.readAllLines(Fixtures.path("fixtures/h200x4/ar-p2p.log"), StandardCharsets.UTF_8);
    BenchRun whole = Bench.read("fixtures/h200x4/ar-p2p.log").runs().getFirst();
    int at = 0;
    while (!all.get(at).contains("Rank  1 Group")) {
      at++;
    }
    List<String> lines = new ArrayList<>(all);
    lines.set(at, line.strip());
    Path p = dir.resolve("ar.log");
    Files.write(p, lines, StandardCharsets.UTF_8);

    BenchFile f = Bench.read(p);

    assertThat(f.malformedRows()).isEqualTo(malformed);
    if (malformed > 0) {
      assertThat(f.malformedSamples().getFirst().line()).isEqualTo(at + 1);
    }
    assertThat(f.runs()).hasSize(1);
    assertThat(f.runs().getFirst().devices()).hasSize(devices);
    assertThat(f.runs().getFirst().rows()).hasSameSizeAs(whole.rows());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "patch past an int | vm:1704:1704 [0] NCCL INFO NCCL version 2.28.99999999999999999999999+cuda13.0 | 1",
        "an ordinary line  | vm:1704:1704 [0] NCCL INFO NCCL version 2.28.9+cuda13.0                       | 0",
      })
  void damagedVersionLineIsMalformed(String name, String line, long malformed) throws Exception {
    List<String> all =
        Files.readAllLines(Fixtures.path("fixtures/h200x4/ar-p2p.log"), StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>(all);
    lines.add(1, line.strip());
    Path p = dir.resolve("ar.log");
    Files.write(p, lines, StandardCharsets.UTF_8);

    BenchFile f = Bench.read(p);

    assertThat(f.malformedRows()).isEqualTo(malformed);
    if (malformed > 0) {
      assertThat(f.malformedSamples().getFirst().line()).isEqualTo(2);
    }
    assertThat(f.runs()).hasSize(1);
    assertThat(f.runs().getFirst().ncclVersion()).isEqualTo(22809);
  }
}
