package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.topolens.catalog.Source;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ZeRO-3's module fetches counted from the shape and the configuration, and their term. */
class Zero3HooksTest {

  /**
   * Llama-3-8B's preset: 32 layers of 9 modules (q, k, v, o, gate, up, down, two norms) + 3; a
   * model known by its size alone is taken as GPT-2-like (6 per layer); only ZeRO-3 has hooks.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "model=llama-3-8b;zero=3;checkpointing=true|291|3|873",
        "model=llama-3-8b;zero=3;checkpointing=false|291|2|582",
        "model=mistral-7b;zero=3;checkpointing=true|291|3|873",
        "params=1350000000;layers=24;hidden=2048;zero=3|147|2|294",
        "params=1350000000;layers=24;hidden=2048;zero=3;checkpointing=true|147|3|441",
        "model=llama-3-8b;zero=2|291|2|0",
        "model=llama-3-8b;strategy=fsdp|291|2|0",
        "model=llama-3-8b;zero=0|291|2|0",
      })
  void fetchesFollowTheShapeAndTheConfiguration(
      String pairs, int modules, int passes, int zero3Fetches) throws Exception {
    Workload w = StepModelTest.scenario(pairs + ";instance=p4d.24xlarge").workload();
    assertThat(Zero3Hooks.modules(w.model())).isEqualTo(modules);
    assertThat(Zero3Hooks.passes(w.checkpointing())).isEqualTo(passes);
    PerfConstants k = PerfConstants.bundled();
    assertThat(Zero3Hooks.seconds(k, w))
        .isCloseTo(zero3Fetches * k.value(Zero3Hooks.KEY), within(1e-12));
  }

  /**
   * The term is modules x passes x micro-steps x the constant on a ZeRO-3 step; none on ZeRO-2; a
   * framework time given for the run replaces it; with the constant at 0 the step loses exactly the
   * part of the term that no collective overlapped.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "instance=p4d.24xlarge;layout=1x4;microBatch=1|true",
        "instance=p4d.24xlarge;layout=4x1;network=efa;microBatch=1|true",
        "instance=g6e.12xlarge;nodes=4;layout=1x4;network=efa;intra=shm;microBatch=4|true",
        "instance=p4d.24xlarge;layout=1x4;microBatch=1;zero=2|false",
        "instance=p4d.24xlarge;layout=1x4;microBatch=1;overheadS=0.25|false",
      })
  void theHookTermIsPricedOnZero3Only(String pairs, boolean hooks) throws Exception {
    Scenario s = StepModelTest.scenario(StepModelTest.SEED + pairs);
    StepModel model = StepModel.standard();
    Prediction p = model.predict(s);
    double term =
        p.terms().stream()
            .filter(t -> t.label().equals("ZeRO-3 module hooks"))
            .mapToDouble(Term::seconds)
            .sum();
    Workload w = s.workload();
    PerfConstants k = PerfConstants.bundled();
    if (!hooks) {
      assertThat(term).isZero();
      return;
    }
    assertThat(term)
        .isCloseTo(
            Zero3Hooks.modules(w.model()) * 3 * w.gradAccum() * k.value(Zero3Hooks.KEY),
            within(1e-9));
    Prediction without = model.withoutZero3Hooks().predict(s);
    double exposedBefore = without.seconds(Term.Kind.COMMUNICATION);
    double exposedAfter = p.seconds(Term.Kind.COMMUNICATION);
    // what the hooks add is their time less the communication they now overlap
    assertThat(p.stepS() - without.stepS())
        .isCloseTo(term - (exposedBefore - exposedAfter), within(1e-9));
    assertThat(exposedAfter).isLessThanOrEqualTo(exposedBefore);
    PerfConstants zero = k.with(Map.of(Zero3Hooks.KEY, 0.0), new Source("TEST", "test", ""));
    assertThat(
            new StepModel(io.topolens.catalog.HardwareCatalog.builtIn(), zero, Calibration.none())
                .predict(s)
                .stepS())
        .isCloseTo(without.stepS(), within(1e-12));
  }
}
