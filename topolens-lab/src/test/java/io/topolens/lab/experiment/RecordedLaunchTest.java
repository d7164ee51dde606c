package io.topolens.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import io.topolens.perf.LaunchChecks;
import io.topolens.perf.PerfConstants;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The one-pod runs of bench/results whose probes measured the host's launch speed, replayed from
 * their recorded logs: the experiment reads each probe's launch line into its variant, and its
 * table predicts the step with the fit host's launch time, not the probe's (which widened the
 * errors on these held-out runs: validate-model's launch section, issue 12).
 */
class RecordedLaunchTest {
  @TempDir Path work;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "h100x4-launch-heldout, h100x4-launch-heldout-runs.yaml",
    "h100x2-launch-heldout, h100x2-launch-heldout-runs.yaml",
  })
  void eachProbesLaunchIsReadAndNotAppliedToThePrediction(String name, String runs)
      throws Exception {
    Recorded r = Recorded.replay(name, work);
    List<LaunchChecks.Check> checks =
        new LaunchChecks(HardwareCatalog.builtIn().with(Recorded.CATALOG), PerfConstants.bundled())
            .of(r.results(), Path.of("../examples/perf").resolve(runs));
    assertThat(checks).hasSameSizeAs(r.replayed().variants());
    for (LaunchChecks.Check c : checks) {
      Experiment.Variant stored = variant(r.stored(), c.variant());
      Experiment.Variant now = variant(r.replayed(), c.variant());
      assertThat(now.launch().layerUs()).isEqualTo(stored.launch().layerUs());
      assertThat(now.launch().kernelUs()).isEqualTo(stored.launch().kernelUs());
      assertThat(now.launch().evidence().line()).isEqualTo(stored.launch().evidence().line());
      assertThat(now.predictedSeconds()).isCloseTo(c.without(), within(1e-9));
      assertThat(now.predictedSeconds()).isNotCloseTo(c.with(), within(1e-6));
    }
  }

  private static Experiment.Variant variant(Experiment e, String name) {
    return e.variants().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
  }
}
