package io.topolens.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.experiment.Experiment;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The experiment table's predicted steps, from the results.json {@code topolens experiment} writes
 * today from the recorded logs of the fourth 4 x H200 layout experiment (its numbers are
 * docs/experiment.md's table), and why a variant has none.
 */
class PredictedStepTest {
  static final Path H200X4 = Path.of("src/test/resources/experiment-h200x4-4");
  static final Path NO_PREDICT = Path.of("src/test/resources/experiment-h200");

  @TempDir Path work;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "1x4                    |0.123|0.137|+11%|its own probe: NVLink at 356 GB/s busbw"
            + "|0.123|0%|the reference: its own measured step",
        "2x2                    |0.863|0.946|+10%|its own probe: TCP sockets at 6.37 GB/s busbw"
            + "|0.946|+10%|held out; 1x4's measured step fixed the compute",
        "1x4-NCCL_P2P_DISABLE=1 |0.23 |0.202|-12%|its own probe: SHM at 30.5 GB/s busbw"
            + "|0.202|-12%|held out; 1x4's measured step fixed the compute",
        "4x1                    |1.37 |1.4  |+3% |its own probe: TCP sockets at 4.28 GB/s busbw"
            + "|1.4  |+3% |held out; 1x4's measured step fixed the compute",
      })
  void eachVariantShowsBothPredictionsWithTheirErrors(
      String name,
      String measured,
      String probe,
      String probeError,
      String probeBasis,
      String oneStep,
      String oneStepError,
      String oneStepBasis)
      throws Exception {
    VariantChart.Row r = row(VariantChart.of(Experiment.read(H200X4)), name);
    assertThat(VariantChart.step(r.variant())).isEqualTo(measured);
    assertThat(r.fromProbe()).isEqualTo(new PredictedStep(probe, probeError, probeBasis, null));
    assertThat(r.withOneStep())
        .isEqualTo(new PredictedStep(oneStep, oneStepError, oneStepBasis, null));
  }

  @org.junit.jupiter.api.Test
  void theReferenceAndItsMfuAreSaidOnce() throws Exception {
    assertThat(VariantChart.of(Experiment.read(H200X4)).withOneStep())
        .containsExactly(
            "1x4's measured step (0.123 s, 0.137 s predicted) fixes the job's MFU at 0.108 (the"
                + " model's 0.097)");
    assertThat(VariantChart.of(Experiment.read(NO_PREDICT)).withOneStep()).isEmpty();
  }

  /**
   * The reference is the variant {@code predictedWithStepReference} names, whatever the sentence in
   * {@code predictedWithStepFrom} begins with (here still 1x4's).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "1x4|the reference: its own measured step|held out; 1x4's measured step fixed the compute",
        "2x2|held out; 2x2's measured step fixed the compute|the reference: its own measured step",
        "1x4-NCCL_P2P_DISABLE=1"
            + "|held out; 1x4-NCCL_P2P_DISABLE=1's measured step fixed the compute"
            + "|held out; 1x4-NCCL_P2P_DISABLE=1's measured step fixed the compute",
      })
  void theReferenceIsTheVariantTheFieldNames(String named, String oneByFour, String twoByTwo)
      throws Exception {
    Experiment e =
        EditedResults.read(H200X4, "*:predictedWithStepReference=" + named, work.resolve("e"));
    VariantChart c = VariantChart.of(e);
    assertThat(PredictedStep.reference(e, row(c, "4x1").variant()).name()).isEqualTo(named);
    assertThat(row(c, "1x4").withOneStep().basis()).isEqualTo(oneByFour);
    assertThat(row(c, "2x2").withOneStep().basis()).isEqualTo(twoByTwo);
  }

  /** A dash and why: each edit is one a real run can write (docs/json.md). */
  @ParameterizedTest(name = "{1}: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        // a spec without predict:
        "experiment-h200   ||p2p|-||no predict: in the spec|-||no predict: in the spec",
        "experiment-h200   ||efa|-||no predict: in the spec|-||no predict: in the spec",
        // a variant that failed before its steps is still predicted from its probe
        "experiment-h200x4-4|4x1:status=failed 4x1:stepSeconds=null 4x1:predictedWithStepSeconds=null"
            + " 4x1:predictedWithStepFrom=null 4x1:predictedWithStepReference=null|4x1|1.4||no measured step|-||it measured no step",
        // predict could not take the variant's configuration
        "experiment-h200x4-4|2x2:predictedSeconds=null 2x2:predictedFrom=null"
            + " 2x2:predictedWithStepSeconds=null 2x2:predictedWithStepFrom=null"
            + " 2x2:predictedWithStepReference=null|2x2|-|"
            + "|the model took no configuration from it (the experiment's output says why)|-|"
            + "|not predicted from its probe either",
        // the reference's step was shorter than the model's other terms: no compute to fix
        "experiment-h200x4-4|*:predictedWithStepSeconds=null *:predictedWithStepFrom=null"
            + " *:predictedWithStepReference=null|2x2|0.946"
            + "|+10%||-||no measured step fixed the job's compute (the experiment's output says why)",
        // another workload than the reference's
        "experiment-h200x4-4|4x1:predictedWithStepSeconds=null 4x1:predictedWithStepFrom=null"
            + " 4x1:predictedWithStepReference=null|4x1|1.4|+3%||-||another job than the reference's",
        // written before predictedWithStepReference: the sentence alone is not parsed for a name
        "experiment-h200x4-4|*:predictedWithStepReference=null|2x2|0.946|+10%||-||results.json names"
            + " no reference (no predictedWithStepReference: written before it)",
        // a hand-edited results.json naming a variant it does not hold
        "experiment-h200x4-4|*:predictedWithStepReference=8x1|2x2|0.946|+10%||-||results.json's"
            + " predictedWithStepReference names no variant of this experiment",
      })
  void aVariantWithoutAPredictionSaysWhy(
      String fixture,
      String edits,
      String name,
      String probe,
      String probeError,
      String probeWhy,
      String oneStep,
      String oneStepError,
      String oneStepWhy)
      throws Exception {
    Experiment e =
        EditedResults.read(
            Path.of("src/test/resources", fixture), edits == null ? "" : edits, work.resolve("e"));
    VariantChart.Row r = row(VariantChart.of(e), name);
    assertThat(cell(r.fromProbe())).isEqualTo(probe + "|" + probeError + "|" + probeWhy);
    assertThat(cell(r.withOneStep())).isEqualTo(oneStep + "|" + oneStepError + "|" + oneStepWhy);
  }

  @ParameterizedTest
  @CsvSource({"0.104, +10%", "-0.1526, -15%", "0.004, 0%", "-0.004, 0%", "0, 0%"})
  void anErrorIsAWholeSignedPercent(double error, String shown) {
    assertThat(PredictedStep.percent(error)).isEqualTo(shown);
  }

  private static String cell(PredictedStep p) {
    return (p.seconds() == null ? "-" : p.seconds())
        + "|"
        + (p.error() == null ? "null" : p.error())
        + "|"
        + p.why();
  }

  private static VariantChart.Row row(VariantChart c, String name) {
    return c.rows().stream().filter(r -> r.variant().name().equals(name)).findFirst().orElseThrow();
  }
}
