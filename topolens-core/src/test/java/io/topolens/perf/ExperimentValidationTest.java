package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.topolens.Fixtures;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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
}
