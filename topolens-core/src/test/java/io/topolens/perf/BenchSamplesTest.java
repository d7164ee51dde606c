package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.Fixtures;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.model.Communicator;
import io.topolens.model.Job;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLogReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

  /**
   * The probe's rank-0 file of each layout of one host (bench/results' experiments): NCCL's ring
   * crosses between its nodes once per node, while rank 0's own connection lines show only the
   * crossings next to rank 0 (1 of 2 for 2 pods of 2, 2 of 4 for 4 pods of 1).
   */
  @ParameterizedTest
  @CsvSource({
    // layout, NCCL's nNodes, ring crossings rank 0's lines show, network hops of the ring
    "2x1, 2, 2, 2",
    "2x2, 2, 1, 2",
    "2x2-run3, 2, 1, 2",
    "4x1, 4, 2, 4",
    "4x1-repeat, 4, 2, 4",
    "1x4-shm, 1, 0, 0",
  })
  void probeRingCrossesOncePerNode(String layout, int nNodes, int rank0Edges, int hops)
      throws Exception {
    Path file = Fixtures.path("perf/probe-hops/" + layout + "/rank-0.out");
    Job job = Fixtures.read("perf/probe-hops/" + layout + "/rank-0.out");
    Communicator comm = largest(job);
    assertThat(comm.nNodes()).isEqualTo(nNodes);
    assertThat(BenchSamples.ringNetHopsByEdges(comm)).isEqualTo(rank0Edges);
    assertThat(READER.read(file, layout, null).netHops()).isEqualTo(hops);
  }

  /**
   * A probe calibrates its own layout at its own rate: its counted hops are the socket flows the
   * model's ring has for that layout, so the flow scaling is 1 whatever the exponent.
   */
  @ParameterizedTest
  @CsvSource({"2x1, 2, 1", "2x2, 2, 2", "2x2-run3, 2, 2", "4x1, 4, 1", "4x1-repeat, 4, 1"})
  void probeOnItsOwnLayoutNeedsNoScaling(String layout, int pods, int gpusPerPod) throws Exception {
    Path file = Fixtures.path("perf/probe-hops/" + layout + "/rank-0.out");
    int hops = READER.read(file, layout, null).netHops();
    int flows = SocketFlows.ringFlows(pods, gpusPerPod, false);
    assertThat(hops).isEqualTo(flows);
    for (double exponent : new double[] {0, 0.306, 1}) {
      assertThat(SocketFlows.perFlowScale(hops, flows, exponent)).isEqualTo(1.0);
    }
  }

  /** With every rank's file read, the printed connections and NCCL's node count agree. */
  @ParameterizedTest
  @CsvSource({
    "2x1, 2, 2",
    "2x2, 4, 2",
    "2x2-run3, 4, 2",
    "4x1, 4, 4",
    "4x1-repeat, 4, 4",
    "1x4-shm, 4, 0"
  })
  void fullLogsAgreeWithTheNodeCount(String layout, int ranks, int hops) {
    String[] files = new String[ranks];
    for (int r = 0; r < ranks; r++) {
      files[r] = "perf/probe-hops/" + layout + "/rank-" + r + ".out";
    }
    Job job = Fixtures.read(files);
    assertThat(largest(job).members()).hasSize(ranks);
    assertThat(BenchSamples.ringNetHopsByEdges(largest(job))).isEqualTo(hops);
    assertThat(BenchSamples.ringNetHops(job, 1)).isEqualTo(hops);
  }

  /** Without NCCL's init line the hosts of the ranks count the nodes, else the printed lines. */
  @ParameterizedTest
  @CsvSource({"2, 2", "1, 1"})
  void withoutNnodesTheHostsCount(int hosts, int hops) throws Exception {
    Path full = Fixtures.path("perf/probe-hops/2x2/rank-0.out");
    Path cut = tmp.resolve("rank-0.out");
    Files.write(
        cut, Files.readAllLines(full).stream().filter(l -> !l.contains(" nNodes ")).toList());
    Job job = new NcclLogReader(1).read(LogInput.expand(List.of(cut.toString())));
    assertThat(largest(job).nNodes()).isEqualTo(-1);
    assertThat(BenchSamples.ringNetHops(job, hosts)).isEqualTo(hops);
  }

  @TempDir Path tmp;

  private static Communicator largest(Job job) {
    return job.communicators().stream()
        .max(Comparator.comparingInt(Communicator::nRanks))
        .orElseThrow();
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

  /**
   * A probe's output carries its launch line into its sample, and a calibration from several probes
   * takes the one of median layer time (each file one draw of the host's speed).
   */
  @Test
  void probesLaunchSpeedIntoTheCalibration() throws Exception {
    List<BenchSample> samples = new java.util.ArrayList<>();
    for (String run : List.of("h100x4-1x4-r1", "h100x2-1x2-r3", "h100x4-2-1x4-r3")) {
      BenchSample s =
          READER.read(Fixtures.path("perf/probe-launch/" + run + "/rank-0.out"), run, null);
      assertThat(s.launch()).isNotNull();
      assertThat(s.path()).isEqualTo(PathKind.NVLINK);
      samples.add(s);
    }
    double median = samples.stream().mapToDouble(s -> s.launch().layerUs()).sorted().toArray()[1];
    Calibration c = Calibrations.fit(samples, Calibrator.standard());
    assertThat(c.launch().orElseThrow().layerUs()).isEqualTo(median);
    assertThat(
            READER.read(Fixtures.path("fixtures/h200x4/ar-sock.log"), "ar-sock.log", null).launch())
        .isNull();
    assertThat(Calibrations.fit(samples.subList(0, 1), Calibrator.standard()).fits()).hasSize(1);
  }
}
