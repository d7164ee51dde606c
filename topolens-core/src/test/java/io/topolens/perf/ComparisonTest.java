package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The example comparison and the offload counterfactual. */
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
    assertThat(c.best()).isEqualTo(0);
    assertThat(c.rows())
        .extracting(r -> Math.round(r.ratio() * 100) / 100.0)
        .containsExactly(1.0, 3.51, 3.75, 3.51);
    assertThat(c.rows().get(2).reason())
        .isEqualTo(
            "+55.4 s/step vs g6e.12xlarge 4n 1x4 efa ZeRO-3 offload cpu: 55.4 s more exposed"
                + " communication (EFA at 2.5 GB/s against EFA at 10 GB/s)");
    assertThat(c.rows().get(0).ratioWithoutOffload()).isNull();
    assertThat(c.rows().get(1).ratioWithoutOffload()).isGreaterThan(3.51);
  }

  @Test
  void offloadDilutesASlowNetwork() throws Exception {
    String base =
        "params=852559872;layers=16;hidden=2048;seq=1024;microBatch=4;strategy=fsdp;reduceDtype=fp32;"
            + "instance=p5e.48xlarge;layout=1x4;offload=cpu;mfu=0.235;cpuAdamRate=1.18e9;intra=";
    Comparison c =
        Comparison.of(
            StepModel.standard(),
            List.of(StepModelTest.scenario(base + "nvlink"), StepModelTest.scenario(base + "tcp")));
    Comparison.Row sock = c.rows().get(1);
    assertThat(sock.ratioWithoutOffload()).isGreaterThan(sock.ratio() * 5);
    assertThat(c.notes()).hasSize(1);
    assertThat(c.notes().get(0)).contains("without CPU offload it would take");
  }
}
