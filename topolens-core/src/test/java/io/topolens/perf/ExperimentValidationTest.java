package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.topolens.Fixtures;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.ValidationReport.RatioCheck;
import io.topolens.perf.ValidationReport.StepCheck;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An experiment's results.json judged against the runs it stands for, by variant name. */
class ExperimentValidationTest {
  private static final Path RESULTS =
      Path.of("../topolens-report/src/test/resources/experiment-h200/results.json");

  private static ExperimentValidation validation() throws InputProblem {
    return new ExperimentValidation(
        HardwareCatalog.builtIn().with(Path.of("../examples/perf/h200x4-catalog.json")),
        PerfConstants.bundled());
  }

  @Test
  void variantsThatMeasuredAStepArePredictedAndPaired() throws Exception {
    ExperimentValidation.Report r =
        validation().run(RESULTS, Fixtures.path("perf/experiment-h200-runs.yaml"));
    assertThat(r.steps())
        .extracting(ValidationReport.StepCheck::name)
        .containsExactly("p2p", "shm", "sockets");
    assertThat(r.steps())
        .extracting(ValidationReport.StepCheck::measured)
        .containsExactly(0.098, 0.41, 2.91);
    // skipped and failed variants are named, never silently dropped
    assertThat(r.leftOut()).hasSize(2);
    assertThat(r.leftOut().get(0)).startsWith("efa: skipped");
    // the same job on other paths, each against the fastest
    assertThat(r.ratios())
        .extracting(ValidationReport.RatioCheck::name)
        .containsExactly("shm / p2p", "sockets / p2p");
    assertThat(r.ratios().get(1).measured()).isCloseTo(2.91 / 0.098, within(1e-9));
    assertThat(r.ratios().get(1).predicted())
        .isCloseTo(r.steps().get(2).predicted() / r.steps().get(0).predicted(), within(1e-9));
  }

  @Test
  void notAnExperimentIsOneLine() {
    assertThatThrownBy(
            () ->
                validation()
                    .run(
                        Path.of("../examples/perf/h200x4-catalog.json"),
                        Fixtures.path("perf/experiment-h200-runs.yaml")))
        .isInstanceOf(InputProblem.class)
        .hasMessageEndingWith("no \"variants\" list (an experiment's results.json)");
  }

  private static ExperimentValidation.Report lent(String results, String config)
      throws InputProblem {
    return new ExperimentValidation(
            HardwareCatalog.builtIn()
                .with(Path.of("../examples/experiment/lent-h100-catalog.json")),
            PerfConstants.bundled())
        .run(
            Path.of("../bench/results/" + results + "/results.json"),
            Path.of("../examples/perf/" + config));
  }

  /**
   * One measured step: the variant predicted fastest without offload is the fit and is matched
   * exactly; the others keep their own terms with its compute.
   */
  @Test
  void oneMeasuredStepFixesTheComputeOfTheFastestVariantWithoutOffload() throws Exception {
    ExperimentValidation.Report r = lent("h100x2-heldout-wide", "h100x2-heldout-wide-runs.yaml");
    ExperimentValidation.StepCalibration c = r.stepCalibration();
    assertThat(c.reference()).isEqualTo("1x2-offload-none");
    StepCheck ref = r.steps().get(0);
    assertThat(ref.name()).isEqualTo(c.reference());
    assertThat(ref.predictedFitted()).isCloseTo(ref.measured(), within(1e-6 * ref.measured()));
    // every other variant is predicted slower than the reference, offload or not
    for (StepCheck s : r.steps()) {
      if (!s.name().equals(c.reference())) {
        assertThat(s.predicted()).isGreaterThan(r.steps().get(0).predicted());
      }
    }
    // a slower measured reference means a lower MFU than the model's
    assertThat(c.mfu() < c.modelMfu()).isEqualTo(c.measuredS() > c.predictedS());
  }

  /**
   * Issue 12's held-out runs (predictions committed before they were measured), calibrated by each
   * variant's probe and one measured step: steps within 30%, ratios between paths within 25%. Only
   * the sets that meet the targets are listed; the host-bound shape on 2 x H100
   * (h100x2-heldout-deep) misses with SHM (docs/model-validation.md says by how much).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "h100x2-heldout-wide, h100x2-heldout-wide-runs.yaml",
    "h200x2-heldout-short, h200x2-heldout-short-runs.yaml",
    "h200x2-heldout-long, h200x2-heldout-long-runs.yaml",
    "h200x2-heldout-deep, h200x2-heldout-deep-runs.yaml",
    "h200x4-experiment-3, h200x4-experiment-runs.yaml",
    "h200x4-experiment-4, h200x4-experiment-repeat-runs.yaml",
  })
  void heldOutRunsWithOneStepWithinTargets(String results, String config) throws Exception {
    ExperimentValidation.Report r = lent(results, config);
    assertThat(r.steps()).hasSizeGreaterThanOrEqualTo(3);
    for (StepCheck s : r.steps()) {
      assertThat(Math.abs(s.predictedFitted() / s.measured() - 1))
          .as(s.name())
          .isLessThanOrEqualTo(OneGpuValidation.TARGET);
    }
    assertThat(r.ratios()).anyMatch(RatioCheck::betweenTransports);
    for (RatioCheck c : r.ratios()) {
      if (c.betweenTransports()) {
        assertThat(Math.abs(c.predictedFitted() / c.measured() - 1))
            .as(c.name())
            .isLessThanOrEqualTo(0.25);
      }
    }
  }

  /**
   * {@code path.tcp.flowExponent} judged on runs it was not fitted to (it is fitted to section 4's
   * layouts, examples/perf/h200-layouts.yaml): the 4-GPU experiments' socket layouts, the layout of
   * fewer flows predicted from the other's probe alone. Within the 25% ratio target, and nearer the
   * measured ratio than the fixed aggregate (exponent 0) it replaces.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "h200x4-experiment, h200x4-experiment-runs.yaml, 2",
    "h200x4-experiment-repeat, h200x4-experiment-repeat-runs.yaml, 1",
    "h200x4-experiment-3, h200x4-experiment-runs.yaml, 2",
    "h200x4-experiment-4, h200x4-experiment-repeat-runs.yaml, 1",
  })
  void oneLayoutsProbeCarriedToAnotherByTheFlowExponentHoldsOut(
      String results, String config, int pairs) throws Exception {
    ExperimentValidation.Report r = lent(results, config);
    assertThat(r.carried()).hasSize(pairs);
    for (RatioCheck c : r.carried()) {
      assertThat(c.name()).startsWith("4x1");
      double held = Math.abs(c.predictedFitted() / c.measured() - 1);
      assertThat(held).as(c.name()).isLessThanOrEqualTo(0.25);
      assertThat(held).as(c.name()).isLessThan(Math.abs(c.predicted() / c.measured() - 1));
    }
  }
}
