package io.topolens.perf;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Each measured step whose probe measured the host's launch speed, predicted with it and without it
 * (issue 12, the host's launch speed held out): the per-layer launch time scaled by the probe's
 * layer op over {@code compute.launchRefLayerUs}, against the fit host's launch time.
 */
public final class LaunchChecks {
  private final HardwareCatalog catalog;
  private final PerfConstants k;

  public LaunchChecks(HardwareCatalog catalog, PerfConstants k) {
    this.catalog = catalog;
    this.k = k;
  }

  /**
   * One step.
   *
   * @param layerUs the probe's layer op, us/op
   * @param with predicted with the probe's launch speed
   * @param without predicted with the fit host's
   */
  public record Check(
      String results,
      String variant,
      double layerUs,
      double measured,
      double with,
      double without) {

    public double errorWith() {
      return with / measured - 1;
    }

    public double errorWithout() {
      return without / measured - 1;
    }
  }

  /** The checks of one experiment's results.json; none when no probe of it measured its launch. */
  public List<Check> of(Path results, Path config) throws InputProblem {
    ExperimentValidation.Report with = new ExperimentValidation(catalog, k).run(results, config);
    List<Check> out = new ArrayList<>();
    if (with.launches().isEmpty()) {
      return out;
    }
    ExperimentValidation.Report without =
        new ExperimentValidation(catalog, k).withoutLaunch().run(results, config);
    for (var e : with.launches().entrySet()) {
      ValidationReport.StepCheck a = step(with, e.getKey());
      ValidationReport.StepCheck b = step(without, e.getKey());
      if (a != null && b != null) {
        out.add(
            new Check(
                results.toString(),
                e.getKey(),
                e.getValue().layerUs(),
                a.measured(),
                a.predicted(),
                b.predicted()));
      }
    }
    return out;
  }

  private static ValidationReport.StepCheck step(ExperimentValidation.Report r, String name) {
    return r.steps().stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
  }

  /** The largest error by magnitude, with its sign; 0 for none. */
  public static double worst(List<Check> checks, boolean with) {
    double w = 0;
    for (Check c : checks) {
      double e = with ? c.errorWith() : c.errorWithout();
      w = Math.abs(e) > Math.abs(w) ? e : w;
    }
    return w;
  }

  /** The mean absolute error; 0 for none. */
  public static double meanAbs(List<Check> checks, boolean with) {
    return checks.stream()
        .mapToDouble(c -> Math.abs(with ? c.errorWith() : c.errorWithout()))
        .average()
        .orElse(0);
  }
}
