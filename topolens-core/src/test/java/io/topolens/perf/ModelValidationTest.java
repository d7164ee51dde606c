package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The numbers docs/model-validation.md reports, so that a change to the model shows here. */
class ModelValidationTest {
  private static ValidationReport report;

  @BeforeAll
  static void run() throws Exception {
    report =
        ModelValidation.standard()
            .run(Fixtures.path("fixtures/h200x4"), Path.of("../examples/perf"));
  }

  @Test
  void benchTargetAfterCalibration() {
    List<ValidationReport.BenchPoint> big =
        report.bench().stream().filter(p -> p.bytes() >= 16L << 20).toList();
    assertThat(big).hasSize(74);
    List<String> misses =
        big.stream()
            .filter(p -> Math.abs(p.calibrated() / p.measured() - 1) > 0.15)
            .map(p -> p.file() + "@" + (p.bytes() >> 20))
            .toList();
    assertThat(misses)
        .containsExactly(
            "ar-p2p-g2.log@16", "ar-p2p-g2.log@32", "ar-sock.log@128", "ar-tree.log@16");
    assertThat(report.skipped()).hasSize(1);
  }

  @Test
  void fsdpRatiosWithDeclaredFits() {
    assertThat(report.ratios()).hasSize(5);
    for (ValidationReport.RatioCheck r : report.ratios()) {
      if (r.betweenTransports()) {
        assertThat(Math.abs(r.predictedFitted() / r.measured() - 1)).as(r.name()).isLessThan(0.2);
      }
    }
    assertThat(report.fitted())
        .extracting(f -> Math.round(f.value() * 1000) / 1000.0)
        .startsWith(0.235);
  }

  @Test
  void seeds() {
    assertThat(report.seeds())
        .extracting(ValidationReport.StepCheck::measured)
        .containsExactly(1787.0, 1695.0, 2441.04, 5408.85);
    assertThat(report.seeds())
        .extracting(s -> Math.round(s.predicted()))
        .containsExactly(378L, 1062L, 1005L, 3524L);
    ValidationReport.RatioCheck diff = report.seedRatios().get(2);
    assertThat(diff.difference()).isTrue();
    assertThat(Math.round(diff.predicted() * 10) / 10.0).isEqualTo(50.4);
    assertThat(report.explanations()).hasSize(3);
  }
}
