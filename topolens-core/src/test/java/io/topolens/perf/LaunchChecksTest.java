package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.topolens.Fixtures;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The held-out runs of the host's launch speed (bench/results/*-launch-heldout*): each step whose
 * probe measured it, predicted with it and without it, against the step measured.
 */
class LaunchChecksTest {
  private static final PerfConstants K = PerfConstants.bundled();

  private static List<LaunchChecks.Check> checks(String dir, String config) throws Exception {
    HardwareCatalog cat =
        HardwareCatalog.load(List.of(Path.of("../examples/experiment/lent-h100-catalog.json")));
    return new LaunchChecks(cat, K)
        .of(
            Path.of("../bench/results/" + dir + "/results.json"),
            Path.of("../examples/perf/" + config));
  }

  /**
   * Every variant whose probe printed a launch line is checked, at its measured median step, and
   * the two predictions differ by the launch term alone: above the fit host's where the probe's
   * layer op is slower than compute.launchRefLayerUs, below where faster, in proportion.
   */
  @ParameterizedTest
  @CsvSource({
    "h100x4-launch-heldout, h100x4-launch-heldout-runs.yaml",
    "h100x2-launch-heldout, h100x2-launch-heldout-runs.yaml",
    "h100x4-launch-heldout-2, h100x4-launch-heldout-runs.yaml",
  })
  void eachMeasuredStepWithAndWithoutTheProbesLaunch(String dir, String config) throws Exception {
    Experiment e = Experiment.read(Path.of("../bench/results/" + dir));
    List<LaunchChecks.Check> checks = checks(dir, config);
    assertThat(checks).hasSize((int) e.variants().stream().filter(v -> v.launch() != null).count());
    assertThat(checks).hasSize(3);
    double ref = K.value("compute.launchRefLayerUs");
    LaunchChecks.Check first = checks.get(0);
    for (LaunchChecks.Check c : checks) {
      Experiment.Variant v =
          e.variants().stream().filter(x -> x.name().equals(c.variant())).findFirst().orElseThrow();
      assertThat(c.measured()).isEqualTo(v.stepSeconds().median());
      assertThat(c.layerUs()).isEqualTo(v.launch().layerUs());
      assertThat(Math.signum(c.with() - c.without())).isEqualTo(Math.signum(c.layerUs() - ref));
      // one job on one machine: the launch term is the same share of each prediction
      double slope = (c.with() - c.without()) / (c.layerUs() / ref - 1);
      double firstSlope = (first.with() - first.without()) / (first.layerUs() / ref - 1);
      assertThat(slope).isCloseTo(firstSlope, within(2e-3));
      assertThat(c.errorWith()).isEqualTo(c.with() / c.measured() - 1);
    }
  }

  /** An experiment whose probes printed no launch line has nothing to check. */
  @Test
  void noLaunchLineNoCheck() throws Exception {
    assertThat(
            new LaunchChecks(
                    HardwareCatalog.builtIn().with(Path.of("../examples/perf/h200x4-catalog.json")),
                    K)
                .of(
                    Path.of("../topolens-report/src/test/resources/experiment-h200/results.json"),
                    Fixtures.path("perf/experiment-h200-runs.yaml")))
        .isEmpty();
  }

  /** Worst keeps its sign; the mean is of magnitudes. */
  @Test
  void worstAndMean() {
    List<LaunchChecks.Check> c =
        List.of(
            new LaunchChecks.Check("a", "x", 500, 0.10, 0.15, 0.09),
            new LaunchChecks.Check("a", "y", 400, 0.10, 0.08, 0.12));
    assertThat(LaunchChecks.worst(c, true)).isCloseTo(0.5, within(1e-12));
    assertThat(LaunchChecks.worst(c, false)).isCloseTo(0.2, within(1e-12));
    assertThat(LaunchChecks.meanAbs(c, true)).isCloseTo(0.35, within(1e-12));
    assertThat(LaunchChecks.meanAbs(c, false)).isCloseTo(0.15, within(1e-12));
  }
}
