package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.topolens.Fixtures;
import io.topolens.catalog.HardwareCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The collective model against NCCL's own tuning table, printed by NCCL 2.28.9 on the 4 x H200
 * fixture ({@code NCCL_DEBUG_SUBSYS=TUNING}): the model, fed only the catalog's H200 and NCCL's
 * constants, must reproduce every Tree and Ring latency and bandwidth NCCL printed.
 */
class CollectiveModelTest {
  private static final CollectiveModel MODEL = CollectiveModel.standard();
  private static final LinkPriors PRIORS = new LinkPriors(PerfConstants.bundled());

  static CommGroup h200x4() throws Exception {
    Link nvlink = PRIORS.nvlink(HardwareCatalog.builtIn().gpu("h200").orElseThrow());
    return new CommGroup(4, 1, 4, nvlink, null, new GpuArch(90), EnumSet.allOf(Protocol.class));
  }

  /** One cell of NCCL's table: collective, algorithm, protocol, latency us, algorithm GB/s. */
  record Cell(CollectiveOp op, Algorithm algo, Protocol proto, double lat, double bw) {}

  static Stream<Cell> ncclTable() throws IOException {
    List<String> lines =
        Files.readAllLines(Fixtures.path("fixtures/h200x4/verbose/fsdp-coll-subsys.log"));
    // The first table NCCL printed: rank 0's Tree | Ring | CollNetDirect columns.
    int start = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("Algorithm   |") && lines.get(i).contains("Tree")) {
        start = i;
        break;
      }
    }
    Pattern cell = Pattern.compile("\\s*([0-9.]+)/\\s*([0-9.]+)\\s*");
    List<Cell> cells = new ArrayList<>();
    for (int i = start + 3; i < start + 8; i++) {
      String[] parts = lines.get(i).split("\\|");
      String name = parts[0].substring(parts[0].indexOf("INFO") + 4).trim();
      CollectiveOp op = CollectiveOp.fromName(name);
      for (int c = 0; c < 6; c++) {
        Matcher m = cell.matcher(parts[1 + c]);
        assertThat(m.matches()).as(parts[1 + c]).isTrue();
        double lat = Double.parseDouble(m.group(1));
        double bw = Double.parseDouble(m.group(2));
        if (bw > 0) {
          cells.add(
              new Cell(
                  op, c < 3 ? Algorithm.TREE : Algorithm.RING, Protocol.values()[c % 3], lat, bw));
        }
      }
    }
    return cells.stream();
  }

  @Test
  void tableHasEveryTreeAndRingCell() throws IOException {
    // 5 collectives x 3 protocols on Ring, plus all_reduce's 3 Tree cells.
    assertThat(ncclTable().count()).isEqualTo(18);
  }

  @ParameterizedTest
  @MethodSource("ncclTable")
  void reproducesNcclTuningTable(Cell cell) throws Exception {
    CommGroup g = h200x4();
    assertThat(MODEL.algorithmBandwidth(cell.op(), g, cell.algo(), cell.proto()))
        .as("bandwidth")
        .isCloseTo(cell.bw(), within(0.05));
    assertThat(MODEL.latency(cell.op(), 1 << 20, g, cell.algo(), cell.proto()))
        .as("latency")
        .isCloseTo(cell.lat(), within(0.05));
  }

  @Test
  void nvlinkPriorIsTheGraphNcclBuilt() throws Exception {
    // graph.xml / the log: "Pattern 4, crossNic 0, nChannels 12, bw 30.000000/30.000000".
    Link l = h200x4().intra();
    assertThat(l.channels()).isEqualTo(12);
    assertThat(l.busBwGBps()).isEqualTo(360.0);
  }

  @Test
  void shmPriorIsTheGraphNcclBuilt() throws Exception {
    // ar-shm.log: "Pattern 4, crossNic 0, nChannels 2, bw 20.000000/20.000000, type PHB/PIX".
    Link l = PRIORS.shm(HardwareCatalog.builtIn().gpu("h200").orElseThrow());
    assertThat(l.channels()).isEqualTo(2);
    assertThat(l.busBwGBps()).isEqualTo(40.0);
  }

  @ParameterizedTest
  @CsvSource({
    // op, n, busbw factor, ring steps
    "ALL_REDUCE, 4, 1.5, 6",
    "ALL_GATHER, 4, 0.75, 3",
    "REDUCE_SCATTER, 16, 0.9375, 15",
    "BROADCAST, 8, 1.0, 8",
    "REDUCE, 2, 1.0, 2",
    "ALL_TO_ALL, 4, 0.75, 4",
  })
  void ncclTestsFactorsAndRingSteps(CollectiveOp op, int n, double factor, int steps) {
    assertThat(op.busBwFactor(n)).isEqualTo(factor);
    assertThat(op.ringSteps(n)).isEqualTo(steps);
  }

  /**
   * Every distinct choice NCCL logged in the fixture's FSDP run ({@code AllGather: 22546432 Bytes
   * -> Algo RING proto SIMPLE}); NCCL prints per-rank bytes, the model takes nccl-tests' totals.
   */
  @ParameterizedTest
  @CsvSource({
    "ALL_GATHER, 22546432, RING, SIMPLE",
    "ALL_GATHER, 65537024, RING, SIMPLE",
    "REDUCE_SCATTER, 45092864, RING, SIMPLE",
    "REDUCE_SCATTER, 131074048, RING, SIMPLE",
    "BROADCAST, 16, RING, LL",
  })
  void picksWhatNcclPicked(CollectiveOp op, long printed, Algorithm algo, Protocol proto)
      throws Exception {
    long total = op == CollectiveOp.BROADCAST ? printed : printed * 4;
    CollectiveCost c = MODEL.cost(op, total, h200x4());
    assertThat(c.algorithm()).isEqualTo(algo);
    assertThat(c.protocol()).isEqualTo(proto);
  }
}
