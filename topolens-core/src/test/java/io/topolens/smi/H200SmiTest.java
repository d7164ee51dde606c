package io.topolens.smi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.topolens.Fixtures;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * fixtures/h200x4/smi.txt: the real 4 x H200 capture (plain nvidia-smi, topo -m with ANSI escapes,
 * five topo -p2p matrices after {@code == p2p X} markers, nvlink -s, nvlink -c), read in full.
 */
class H200SmiTest {
  static SmiReport report;

  @BeforeAll
  static void read() throws Exception {
    report = new NvidiaSmiReader().read(Fixtures.path("fixtures/h200x4/smi.txt"));
  }

  @Test
  void everyLineIsRecognised() {
    assertThat(report.lines()).isEqualTo(639);
    assertThat(report.unrecognized().count()).isZero();
    assertThat(report.malformed().count()).isZero();
  }

  @Test
  void topologyMatrixIsNv18BetweenEveryPair() {
    assertThat(report.matrices()).hasSize(1);
    TopoMatrix m = report.matrices().getFirst();
    assertThat(m.gpus()).containsExactly("GPU0", "GPU1", "GPU2", "GPU3");
    assertThat(m.nics()).isEmpty();
    assertThat(m.pairClassCounts()).isEqualTo(Map.of("NV18", 6));
    assertThat(m.gpuPairs())
        .hasSize(6)
        .allSatisfy(p -> assertThat(p.link().nvlinks()).isEqualTo(18));
    assertThat(m.bestGpuLink().label()).isEqualTo("NV18");
    assertThat(m.worstGpuLink().label()).isEqualTo("NV18");
    assertThat(m.header().line()).isEqualTo(33);
    assertThat(m.rows().get("GPU3").line()).isEqualTo(37);
    assertThat(m.affinityColumns())
        .containsExactly(TopoMatrix.CPU_AFFINITY, TopoMatrix.NUMA_AFFINITY, TopoMatrix.GPU_NUMA_ID);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"GPU0", "GPU1", "GPU2", "GPU3"})
  void affinityColumns(String gpu) {
    GpuAffinity a = report.matrices().getFirst().affinity().get(gpu);
    assertThat(a.cpuAffinity()).isEqualTo("0-63");
    assertThat(a.cpus()).hasSize(64).startsWith(0, 1).endsWith(63);
    assertThat(a.numaAffinity()).isEqualTo("0");
    assertThat(a.numaNode()).isZero();
    assertThat(a.gpuNumaId()).isNull();
  }

  @ParameterizedTest(name = "p2p {0}")
  @CsvSource({
    "READ, 0, 6, 48",
    "WRITE, 0, 6, 64",
    "NVLINK, 0, 6, 80",
    "ATOMICS, 0, 6, 96",
    "PROP, 6, 0, 112"
  })
  void p2pMatrices(P2pMode mode, int notSupported, int ok, long modeLine) {
    P2pMatrix m = report.p2p(mode).orElseThrow();
    assertThat(m.gpus()).containsExactly("GPU0", "GPU1", "GPU2", "GPU3");
    assertThat(m.missingRows()).isEmpty();
    assertThat(m.pairs()).hasSize(6);
    assertThat(m.pairs().stream().filter(p -> p.status() == P2pStatus.OK)).hasSize(ok);
    assertThat(m.pairs().stream().filter(p -> p.status() == P2pStatus.NS)).hasSize(notSupported);
    assertThat(m.status("GPU2", "GPU2")).isEqualTo(P2pStatus.SELF);
    assertThat(m.modeEvidence().line()).isEqualTo(modeLine);
    assertThat(m.modeEvidence().text()).isEqualTo("== p2p " + mode.letter());
  }

  @Test
  void fiveP2pMatricesInFileOrder() {
    assertThat(report.p2p())
        .extracting(P2pMatrix::mode)
        .containsExactly(
            P2pMode.READ, P2pMode.WRITE, P2pMode.NVLINK, P2pMode.ATOMICS, P2pMode.PROP);
  }

  @ParameterizedTest(name = "GPU {0}")
  @CsvSource({
    "0, 00000000:00:06.0, GPU-24248ac8-c2a7-bbb3-3fbc-cfafe28430be",
    "1, 00000000:00:07.0, GPU-aba3ccbb-485d-b322-905b-300ee09dd4c7",
    "2, 00000000:00:08.0, GPU-35dbb3dd-bc6a-8d24-264e-1c22176352a8",
    "3, 00000000:00:09.0, GPU-770f1196-7717-9f80-ebed-29835fa1d4f0"
  })
  void gpuNamesBusIdsAndUuids(int index, String busId, String uuid) {
    SmiGpu g = report.gpus().get(index);
    assertThat(g.index()).isEqualTo(index);
    assertThat(g.name()).isEqualTo("NVIDIA H200");
    assertThat(g.busId()).isEqualTo(busId);
    assertThat(g.uuid()).isEqualTo(uuid);
  }

  @Test
  void driverBanner() {
    assertThat(report.driverVersion()).isEqualTo("580.159.04");
    assertThat(report.cudaVersion()).isEqualTo("13.0");
    assertThat(report.banner().line()).isEqualTo(3);
  }

  @Test
  void nvlinkSpeeds() {
    assertThat(report.nvlinks()).hasSize(4);
    for (NvlinkStatus s : report.nvlinks()) {
      assertThat(s.name()).isEqualTo("NVIDIA H200");
      assertThat(s.links()).hasSize(18);
      assertThat(s.active()).hasSize(18);
      assertThat(s.links()).allSatisfy(l -> assertThat(l.gbps()).isEqualTo(26.562));
      assertThat(s.totalGbps()).isCloseTo(18 * 26.562, offset(1e-9));
    }
    assertThat(report.nvlinks()).extracting(NvlinkStatus::gpu).containsExactly(0, 1, 2, 3);
  }
}
