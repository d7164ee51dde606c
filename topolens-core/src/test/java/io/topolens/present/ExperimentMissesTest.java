package io.topolens.present;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.perf.ValidationReport;
import io.topolens.perf.ValidationReport.StepCheck;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two experiments of one host: every step beyond the target gets a line naming it, set against the
 * same variant in the other experiment; steps within the target get none. A miss on a shape the
 * host-threads sweep ran says what the sweep's numbers say of CPU threads over the vCPUs.
 */
class ExperimentMissesTest {
  private static ValidationReport report;
  private static String md;

  @BeforeAll
  static void run() throws Exception {
    Validated v =
        Validated.run(
            List.of("bench/results/h100x2-host-threads"),
            List.of(
                "bench/results/h100x2-experiment-torchrun-threads/results.json",
                "bench/results/h100x2-experiment/results.json"),
            List.of(
                "examples/perf/h100x2-experiment-runs.yaml",
                "examples/perf/h100x2-experiment-default-threads-runs.yaml"));
    report = v.report();
    md = v.md();
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

  @Test
  void aMissOnASweptShapeSaysWhatTheSweepMeasured() {
    assertThat(report.hostThreads()).isNotNull();
    assertThat(md).contains("## 8. CPU threads against the step");
    var sweep = report.hostThreads();
    int cited = 0;
    for (var e : report.experiments()) {
      for (StepCheck c : e.steps()) {
        var w = e.workloads().get(c.name());
        String shape = sweep.shapeOf(w.model().hidden(), w.model().layers(), w.seq());
        boolean miss = Math.abs(c.predicted() / c.measured() - 1) > ValidationMarkdown.JOB_TARGET;
        if (!miss || shape == null || w.offload().any()) {
          continue;
        }
        var effect = sweep.effect(shape, f -> true);
        int from = md.indexOf("- " + c.name() + ": ");
        String bullet = md.substring(from, md.indexOf('\n', from));
        assertThat(bullet).contains("The host-threads sweep (section 8) ran this shape");
        assertThat(bullet)
            .contains(
                effect.overWithinSpread() && effect.overThreadsIdle()
                    ? "the threads do not explain this miss"
                    : "the threads account for part of this miss");
        cited++;
      }
    }
    // every bullet that cites the sweep is one of those misses (none since the launches grew with
    // the ranks, compute.launchPerPeerShare: section 7's 1x2-offload-none is within the target)
    assertThat(md.split("The host-threads sweep \\(section 8\\) ran this shape", -1).length - 1)
        .isEqualTo(cited);
  }
}
