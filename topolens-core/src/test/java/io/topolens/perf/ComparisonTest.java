package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a comparison must say whatever the constants: ratios follow from the predicted steps, the
 * best row is the fastest, reasons name the term that grew, and offload dilutes a slow network.
 */
class ComparisonTest {

  @Test
  void layoutsAndNetworksOnG6e() throws Exception {
    List<Scenario> runs = new ArrayList<>();
    for (String layout : List.of("1x4", "4x1")) {
      for (String net : List.of("efa", "eni")) {
        runs.add(
            StepModelTest.scenario(
                StepModelTest.SEED
                    + "microBatch=4;instance=g6e.12xlarge;nodes=4;layout="
                    + layout
                    + ";network="
                    + net));
      }
    }
    Comparison c = Comparison.of(StepModel.standard(), runs);
    double bestStep = c.rows().get(c.best()).prediction().stepS();
    for (Comparison.Row r : c.rows()) {
      assertThat(r.ratio()).isCloseTo(r.prediction().stepS() / bestStep, within(1e-9));
      assertThat(r.ratio()).isGreaterThanOrEqualTo(1.0);
    }
    // one pod per node over EFA keeps ring hops inside the host: it must be the fastest
    assertThat(c.rows().get(c.best()).prediction().scenario().name()).contains("1x4 efa");
    Comparison.Row perGpu = c.rows().get(2);
    assertThat(perGpu.prediction().scenario().cluster().podsPerNode()).isEqualTo(4);
    double extra =
        perGpu.prediction().seconds(Term.Kind.COMMUNICATION)
            - c.rows().get(0).prediction().seconds(Term.Kind.COMMUNICATION);
    assertThat(extra).isPositive();
    assertThat(perGpu.reason())
        .contains(StepModel.num3(extra).replaceAll("\\.?0+$", ""))
        .contains("more exposed communication");
    assertThat(c.rows().get(c.best()).ratioWithoutOffload()).isNull();
    assertThat(c.rows().get(1).ratioWithoutOffload()).isGreaterThan(c.rows().get(1).ratio());
  }

  @Test
  void offloadDilutesASlowNetwork() throws Exception {
    String base =
        "params=852559872;layers=16;hidden=2048;seq=1024;microBatch=4;strategy=fsdp;reduceDtype=fp32;"
            + "instance=p5e.48xlarge;layout=1x4;offload=cpu;intra=";
    Comparison c =
        Comparison.of(
            StepModel.standard(),
            List.of(StepModelTest.scenario(base + "nvlink"), StepModelTest.scenario(base + "tcp")));
    Comparison.Row sock = c.rows().get(1);
    assertThat(sock.ratioWithoutOffload()).isGreaterThan(sock.ratio() * 2);
    assertThat(c.notes()).hasSize(1);
    assertThat(c.notes().get(0)).contains("without CPU offload it would take");
  }
}
