package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.topolens.Fixtures;
import io.topolens.model.Evidence;
import io.topolens.nccl.InputProblem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** DeepSpeed's wall_clock_breakdown timers, and the two terms fitted to them. */
class DeepSpeedFitTest {

  /** A real Megatron-DeepSpeed log (public/steps/README.md): step 2's timers, step 1 warm-up. */
  @Test
  void readsTheStepTimersAfterTheFirst() throws Exception {
    DeepSpeedTimers t =
        DeepSpeedTimers.read(
            Fixtures.path("public/steps/megatron-ds-alcf-sunspot-fwd-bwd.log"), "sunspot.log");
    assertThat(t.steps()).isEqualTo(1);
    assertThat(t.fwdS()).isCloseTo(4.02273, within(1e-9));
    assertThat(t.bwdS()).isCloseTo(15.73866, within(1e-9));
    assertThat(t.stepS()).isCloseTo(0.37102, within(1e-9));
    assertThat(t.evidence().line()).isEqualTo(4);
  }

  @Test
  void aLogWithoutTimersIsOneLine() {
    assertThatThrownBy(
            () -> DeepSpeedTimers.read(Fixtures.path("fixtures/h200x4/ar-p2p.log"), "ar-p2p.log"))
        .isInstanceOf(InputProblem.class)
        .hasMessageStartingWith("ar-p2p.log: no DeepSpeed wall_clock_breakdown lines");
  }

  /** Timers made by the model with known terms give those terms back. */
  @ParameterizedTest
  @CsvSource({
    // overhead per micro-step s, CPU Adam parameters/s per host, scenario
    "7.0, 1.0e9, instance=p4d.24xlarge;layout=1x4;microBatch=1",
    "10.0, 2.5e9, instance=g6e.12xlarge;nodes=4;layout=1x4;network=efa;microBatch=4",
    "30.0, 4.0e8, instance=g6e.12xlarge;nodes=4;layout=1x4;network=eni;microBatch=4",
  })
  void recoversTheTermsThatMadeTheTimers(double overhead, double rate, String pairs)
      throws Exception {
    StepModel model = StepModel.standard();
    Scenario s = StepModelTest.scenario(StepModelTest.SEED + pairs);
    Scenario truth =
        new Scenario(
            s.name(), s.workload().withOverhead(overhead).withCpuAdamRate(rate), s.cluster());
    Prediction p = model.predict(truth);
    double cpu = p.seconds(Term.Kind.CPU_OPTIMIZER);
    DeepSpeedTimers t =
        new DeepSpeedTimers(p.stepS() - cpu, 0, cpu, 5, new Evidence("made.log", 1, "made"));
    DeepSpeedFit f = DeepSpeedFit.fit(model, s, t);
    assertThat(f.overheadS()).isCloseTo(overhead, within(overhead * 1e-6 + 1e-9));
    assertThat(f.cpuAdamRate()).isCloseTo(rate, within(rate * 1e-9));
    assertThat(model.predict(f.apply(s)).stepS()).isCloseTo(p.stepS(), within(p.stepS() * 1e-6));
    assertThat(f.fitted()).hasSize(2);
    assertThat(f.fitted().get(0)).startsWith("framework time").contains("made.log:1");
  }

  /** Framework time that hides under communication leaves no trace in the timers: it says so. */
  @Test
  void timeHiddenUnderCommunicationIsNotInvented() throws Exception {
    StepModel model = StepModel.standard();
    Scenario s =
        StepModelTest.scenario(
            StepModelTest.SEED
                + "instance=g6e.12xlarge;nodes=4;layout=1x4;network=eni;microBatch=4");
    Prediction p = model.predict(s);
    double cpu = p.seconds(Term.Kind.CPU_OPTIMIZER);
    DeepSpeedTimers t =
        new DeepSpeedTimers(p.stepS() - cpu, 0, cpu, 5, new Evidence("made.log", 1, "made"));
    DeepSpeedFit f = DeepSpeedFit.fit(model, s, t);
    assertThat(f.overheadS()).isZero();
    assertThat(f.fitted().get(0)).contains("cannot be told from these timers");
  }
}
