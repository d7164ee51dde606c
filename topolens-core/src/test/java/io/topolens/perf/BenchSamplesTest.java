package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.Fixtures;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which path each H200 fixture took, told from NCCL's own lines in it. */
class BenchSamplesTest {
  private static final BenchSamples READER = new BenchSamples(HardwareCatalog.builtIn());

  /** Network hops of the ring, from the connection lines: every hop with P2P and SHM off. */
  @ParameterizedTest
  @CsvSource({"ar-sock.log, 4", "ag-sock.log, 4", "ar-p2p.log, 0", "ar-shm.log, 0"})
  void ringNetworkHops(String file, int hops) throws Exception {
    assertThat(READER.read(Fixtures.path("fixtures/h200x4/" + file), file, null).netHops())
        .isEqualTo(hops);
  }

  /** A table with one column set (no in-place half), as other tools print nccl-tests' layout. */
  @Test
  void oneColumnSetCalibratesLikeTheFullTable() throws Exception {
    BenchSample one =
        READER.read(
            Fixtures.path("perf/ar-sock-one-column-set.log"), "ar-sock-one-column-set.log", null);
    BenchSample full =
        READER.read(Fixtures.path("fixtures/h200x4/ar-sock.log"), "ar-sock.log", null);
    assertThat(one.path()).isEqualTo(PathKind.TCP);
    assertThat(one.netHops()).isEqualTo(4);
    assertThat(one.rows()).hasSameSizeAs(full.rows());
    assertThat(one.rows()).allMatch(r -> r.inPlaceUs() == null);
    for (int i = 0; i < one.rows().size(); i++) {
      assertThat(one.rows().get(i).outOfPlaceUs()).isEqualTo(full.rows().get(i).outOfPlaceUs());
    }
  }

  @ParameterizedTest
  @CsvSource({
    // file, path, NCCL_ALGO, op, ranks, rows, the line that told the path
    "ar-p2p.log, NVLINK, , ALL_REDUCE, 4, 30, 126",
    "ar-p2p-g2.log, NVLINK, , ALL_REDUCE, 2, 30, 88",
    "ag-p2p.log, NVLINK, , ALL_GATHER, 4, 27, 129",
    "rs-p2p.log, NVLINK, , REDUCE_SCATTER, 4, 27, 134",
    "ar-ring.log, NVLINK, Ring, ALL_REDUCE, 4, 7, 157",
    "ar-tree.log, NVLINK, Tree, ALL_REDUCE, 4, 7, 136",
    "ar-shm.log, SHM, , ALL_REDUCE, 4, 29, 260",
    "ag-shm.log, SHM, , ALL_GATHER, 4, 26, 111",
    "ar-sock.log, TCP, , ALL_REDUCE, 4, 27, 117",
    "ag-sock.log, TCP, , ALL_GATHER, 4, 24, 113",
  })
  void pathFromNcclLines(
      String file, PathKind path, String algo, CollectiveOp op, int ranks, int rows, long line)
      throws Exception {
    BenchSample s = READER.read(Fixtures.path("fixtures/h200x4/" + file), file, null);
    assertThat(s.path()).isEqualTo(path);
    assertThat(s.ncclAlgo()).isEqualTo(algo);
    assertThat(s.rows()).hasSize(rows);
    assertThat(s.rows()).allMatch(r -> r.op() == op && r.ranks() == ranks);
    assertThat(s.pathFrom().line()).isEqualTo(line);
    assertThat(s.gpu()).isEqualTo("NVIDIA H200");
    assertThat(s.nodes()).isEqualTo(1);
    assertThat(s.ringSimple()).isEqualTo(!"Tree".equals(algo));
  }

  @Test
  void fileWithoutNcclLinesNeedsItsPathNamed() throws Exception {
    var path = Fixtures.path("fixtures/h200x4/ar-p2p-json.log");
    assertThatThrownBy(() -> READER.read(path, "ar-p2p-json.log", null))
        .isInstanceOf(InputProblem.class)
        .hasMessage(
            "ar-p2p-json.log: no NCCL_DEBUG=INFO connection lines say which path the run took;"
                + " name it, e.g. --calibrate nvlink=ar-p2p-json.log");
    BenchSample named = READER.read("nvlink=" + path);
    assertThat(named.path()).isEqualTo(PathKind.NVLINK);
    assertThat(named.pathFrom()).isNull();
    assertThat(named.rows()).hasSize(6);
  }

  @Test
  void unknownPathWord() {
    assertThatThrownBy(() -> READER.read("fast=x.log"))
        .isInstanceOf(InputProblem.class)
        .hasMessage(
            "--calibrate fast=x.log: unknown path \"fast\" (nvlink, pcie, shm, efa, ib, tcp or eni)");
  }

  @Test
  void missingFile() {
    assertThatThrownBy(() -> READER.read("/nonexistent/ar.log"))
        .isInstanceOf(InputProblem.class)
        .hasMessageStartingWith("/nonexistent/ar.log: ");
  }
}
