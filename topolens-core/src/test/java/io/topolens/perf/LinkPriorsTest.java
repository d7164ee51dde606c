package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.InstanceSpec;
import io.topolens.nccl.InputProblem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Priors from the catalog and NCCL's topology model, before any calibration. */
class LinkPriorsTest {
  private static final HardwareCatalog CATALOG = HardwareCatalog.builtIn();
  private static final LinkPriors PRIORS = new LinkPriors(PerfConstants.bundled());

  @ParameterizedTest
  @CsvSource({
    // gpu, path, channels, bus GB/s
    "h200, NVLINK, 12, 360",
    "h100-sxm, NVLINK, 12, 360",
    "a100-sxm4, NVLINK, 12, 240",
    "b200, NVLINK, 16, 720",
    "h200, SHM, 2, 40",
    "h200, PCIE, 2, 48",
    "l40s, PCIE, 2, 24",
    "l40s, SHM, 2, 20",
    "a10g, SHM, 2, 20",
    "v100-sxm2, NVLINK, 6, 120",
  })
  void intraHostPriors(String gpu, PathKind path, int channels, double bus) throws Exception {
    var g = CATALOG.gpu(gpu).orElseThrow();
    Link l =
        switch (path) {
          case NVLINK -> PRIORS.nvlink(g);
          case PCIE -> PRIORS.pcie(g);
          default -> PRIORS.shm(g);
        };
    assertThat(l.channels()).isEqualTo(channels);
    assertThat(l.busBwGBps()).isEqualTo(bus);
    assertThat(l.calibrated()).isFalse();
  }

  @ParameterizedTest
  @CsvSource({
    // instance, path, pods per host, crosses hosts, bus GB/s
    "p4d.24xlarge, EFA, 1, true, 40",
    "p4d.24xlarge, EFA, 4, false, 10",
    "g6e.12xlarge, EFA, 1, true, 10",
    "g6e.12xlarge, EFA, 4, true, 2.5",
    "g6e.12xlarge, TCP, 1, true, 2.68",
    "g6e.12xlarge, TCP, 4, false, 2.68",
    "g5.xlarge, TCP, 1, true, 1.25",
    "p5.48xlarge, EFA, 1, true, 320",
  })
  void networkPriors(String type, PathKind path, int pods, boolean crosses, double bus)
      throws Exception {
    InstanceSpec inst = CATALOG.instance(type).orElseThrow();
    assertThat(PRIORS.network(path, inst, pods, crosses, null).busBwGBps()).isEqualTo(bus);
  }

  @ParameterizedTest
  @CsvSource({
    "g5.xlarge, EFA, g5.xlarge has no EFA in the catalog; use --network eni",
    "g6e.12xlarge, IB, the catalog has no InfiniBand rate for g6e.12xlarge; pass --nic-gbps",
  })
  void networksTheCatalogCannotPrice(String type, PathKind path, String message) {
    InstanceSpec inst = CATALOG.instance(type).orElseThrow();
    assertThatThrownBy(() -> PRIORS.network(path, inst, 1, true, null))
        .isInstanceOf(InputProblem.class)
        .hasMessage(message);
  }

  @ParameterizedTest
  @CsvSource({"l40s, NVIDIA L40S has no NVLink in the catalog; use --intra pcie or shm"})
  void noNvlink(String gpu, String message) {
    assertThatThrownBy(() -> PRIORS.nvlink(CATALOG.gpu(gpu).orElseThrow()))
        .isInstanceOf(InputProblem.class)
        .hasMessage(message);
  }
}
