package io.topolens.present;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.perf.Calibrator;
import io.topolens.perf.ModelValidation;
import io.topolens.perf.PerfConstants;
import io.topolens.perf.ValidationReport;
import io.topolens.perf.ValidationReport.StepCheck;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two experiments of one host: every step beyond the target gets a line naming it, set against the
 * same variant in the other experiment; steps within the target get none.
 */
class ExperimentMissesTest {
  private static final Path REPO = Path.of("..");
  private static ValidationReport report;
  private static String md;

  @BeforeAll
  static void run() throws Exception {
    report =
        new ModelValidation(
                HardwareCatalog.builtIn()
                    .with(REPO.resolve("examples/experiment/lent-h100-catalog.json")),
                PerfConstants.bundled(),
                Calibrator.standard())
            .run(
                REPO.resolve("topolens-core/src/test/resources/fixtures/h200x4"),
                REPO.resolve("examples/perf"),
                List.of(),
                List.of(
                    REPO.resolve("bench/results/h100x2-experiment-torchrun-threads/results.json"),
                    REPO.resolve("bench/results/h100x2-experiment/results.json")),
                List.of(
                    REPO.resolve("examples/perf/h100x2-experiment-runs.yaml"),
                    REPO.resolve("examples/perf/h100x2-experiment-default-threads-runs.yaml")));
    StringWriter w = new StringWriter();
    new ValidationMarkdown().write(report, new PrintWriter(w));
    md = w.toString();
  }

  @Test
  void everyMissIsNamedAndSetAgainstTheOtherRun() {
    assertThat(report.experiments()).hasSize(2);
    assertThat(md).contains("## 6. Experiment").contains("## 7. Experiment");
    for (int i = 0; i < report.experiments().size(); i++) {
      var e = report.experiments().get(i);
      int from = md.indexOf("## " + (6 + i) + ". Experiment");
      String section = md.substring(from, md.indexOf("\n## ", from + 1));
      for (StepCheck c : e.steps()) {
        boolean miss = Math.abs(c.predicted() / c.measured() - 1) > ValidationMarkdown.JOB_TARGET;
        String bullet = "- " + c.name() + ": ";
        if (miss) {
          assertThat(section).contains(bullet).contains("the same variant measured");
        } else {
          assertThat(section).as(c.name()).doesNotContain(bullet);
        }
      }
    }
  }
}
