package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * nranks and the collective inferred from a table alone: real outputs with their rank lines and
 * test names removed give back what those lines said.
 */
class InferenceTest {

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
fixtures/h200x4/ar-p2p.log   |ALL_REDUCE    |4 |busbw/algbw = 1.49999 over 50 results, 2(n-1)/n for n in 4..4
fixtures/h200x4/rs-p2p.log   |REDUCE_SCATTER|4 |size = count x type size x 4 in every row
public/nccl-tests/016-all-reduce-gcp-a3mega-16r-2node.txt|ALL_REDUCE|16|busbw/algbw = 1.87499 over 48 results, 2(n-1)/n for n in 16..16
public/nccl-tests/027-all-reduce-v2.17.1-gh200-8r-2node-alps-collective-starting.txt|ALL_REDUCE|8|busbw/algbw = 1.74997 over 42 results, 2(n-1)/n for n in 8..8
""")
  void withoutRankLines(String resource, Collective named, int nranks, String basis)
      throws Exception {
    BenchRun full = Bench.read(resource).runs().getFirst();
    assertThat(full.collective()).isEqualTo(named);
    assertThat(full.nranks()).isEqualTo(nranks);
    assertThat(full.nranksInferred()).isFalse();
    List<String> kept =
        Files.readAllLines(Fixtures.path(resource), StandardCharsets.UTF_8).stream()
            .filter(
                l -> !l.contains("Rank ") && !l.contains("Collective test") && !l.contains("$ "))
            .toList();
    Path p = dir.resolve("bench.log");
    Files.writeString(p, String.join("\n", kept) + "\n");
    BenchRun r = Bench.read(p).runs().getFirst();
    assertThat(r.collective()).isEqualTo(named);
    assertThat(r.collectiveFrom().text()).startsWith("collective inferred from the table: ");
    assertThat(r.nranks()).isEqualTo(nranks);
    assertThat(r.nranksInferred()).isTrue();
    assertThat(r.nranksFrom().text()).isEqualTo("nranks inferred: " + basis);
  }

  /** The range a table allows, and the value chosen in it. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
007-all-reduce-p5en-elided-rows.txt                        |128 |128 |128
008-all-reduce-old-error-col-128r-a100-k8s-elided-ranks.txt|126 |128 |128
009-all-reduce-old-error-col-sharp-lines-interleaved.txt   |32  |32  |32
010-all-reduce-gb200-20-racks-1440r-single-rank-line.txt   |1404|1472|1440
011-all-reduce-dgx2h-superpod-check0-error-na-indented.txt |1350|1576|1480
012-all-reduce-2019-old-error-col-narrow-type-col.txt      |16  |16  |16
""")
  void ranges(String file, int low, int high, int chosen) {
    BenchRun r = Bench.read("public/nccl-tests/" + file).runs().getFirst();
    RankInference range = RankInference.of(r.collective(), r.rows());
    assertThat(range.low()).isEqualTo(low);
    assertThat(range.high()).isEqualTo(high);
    assertThat(r.nranks()).isEqualTo(chosen);
    assertThat(r.nranksFrom().text()).contains("for n in " + low + ".." + high);
  }

  /** What a table alone fits, and a file name that settles it. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
public/nccl-tests/002-scatter-perf-readme-excerpt-srun-prefix-zero-size-rows.txt|scatter_perf, gather_perf|SCATTER
public/nccl-tests/017-all-gather-gke-a3mega-misaligned-columns-zero-rows.txt    |all_gather_perf, alltoall_perf, alltoallv_perf|ALL_GATHER
""")
  void fileNameSettlesWhatTheTableCannot(String resource, String fits, Collective expected)
      throws Exception {
    BenchRun r = Bench.read(resource).runs().getFirst();
    assertThat(r.collective()).isEqualTo(expected);
    assertThat(r.collectiveFrom().line()).isZero();
    assertThat(r.collectiveFrom().text()).endsWith("the table fits " + fits);
    Path p = dir.resolve("results.txt");
    Files.copy(Fixtures.path(resource), p);
    BenchRun anonymous = Bench.read(p).runs().getFirst();
    assertThat(anonymous.collective()).isNull();
    assertThat(anonymous.collectiveFrom().text())
        .isEqualTo("collective unknown: the table fits " + fits);
    assertThat(anonymous.nranks()).isEqualTo(16);
    assertThat(anonymous.nranksInferred()).isTrue();
  }

  /**
   * ag-p2p.log without its test name: all_gather and alltoall print the same table; every reading
   * gives 4 ranks; a file named after the test settles the collective.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "-",
      value = {"bench.log,-", "all_gather.log,ALL_GATHER", "nccl-allgather-4gpu.txt,ALL_GATHER"})
  void allGatherWithoutItsName(String name, Collective expected) throws Exception {
    List<String> kept =
        Files.readAllLines(Fixtures.path("fixtures/h200x4/ag-p2p.log"), StandardCharsets.UTF_8)
            .stream()
            .filter(l -> !l.contains("Collective test"))
            .toList();
    Path p = dir.resolve(name);
    Files.writeString(p, String.join("\n", kept) + "\n");
    BenchRun r = Bench.read(p).runs().getFirst();
    assertThat(r.collective()).isEqualTo(expected);
    assertThat(r.nranks()).isEqualTo(4);
    assertThat(r.nranksInferred()).isFalse();
    assertThat(r.peak().outOfPlace().busBw()).isEqualTo(339.79);
  }
}
