package io.topolens.perf;

import io.topolens.perf.ValidationReport.StepCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One job's experiment run several times on one machine (each run after its own probe), each run
 * judged as {@link ExperimentValidation} judges an experiment: how far a variant's step and its
 * ratio to the one-step reference move between runs of the same settings, and how far the one-step
 * prediction of each run misses. A miss elsewhere that lies inside this spread is one run's draw,
 * not a term the model lacks.
 *
 * @param dir the folder the runs' results.json files were read from
 * @param runs each run, judged on its own (its own probes, its own reference step)
 * @param reference the variant every run's one-step calibration used, or null when the runs
 *     disagree or none could be calibrated (then no ratios)
 * @param variants each variant's steps across the runs, in the order first seen
 * @param ratios each other variant's step over the reference's, run by run
 */
public record RunSpread(
    String dir,
    List<ExperimentValidation.Report> runs,
    String reference,
    List<Variant> variants,
    List<Ratio> ratios) {

  public RunSpread {
    runs = List.copyOf(runs);
    variants = List.copyOf(variants);
    ratios = List.copyOf(ratios);
  }

  /**
   * A variant's measured step (each run's median step) across the runs.
   *
   * @param oneStepErrors predicted with the run's own reference step / measured - 1, for each run
   *     where the variant is held out of that calibration (empty for the reference)
   */
  public record Variant(String name, List<Double> measured, List<Double> oneStepErrors) {
    public Variant {
      measured = List.copyOf(measured);
      oneStepErrors = List.copyOf(oneStepErrors);
    }

    /** The slowest run over the fastest, less 1. */
    public double spread() {
      return max(measured) / min(measured) - 1;
    }
  }

  /**
   * A variant's step over the reference's, per run, measured and as the one-step model predicts it.
   */
  public record Ratio(String name, List<Double> measured, List<Double> predicted) {
    public Ratio {
      measured = List.copyOf(measured);
      predicted = List.copyOf(predicted);
    }

    /** Whether {@code ratio} lies within the runs' lowest and highest measured ratio. */
    public boolean covers(double ratio) {
      return ratio >= min(measured) && ratio <= max(measured);
    }
  }

  public static RunSpread of(String dir, List<ExperimentValidation.Report> runs) {
    String reference = null;
    boolean agree = !runs.isEmpty();
    for (ExperimentValidation.Report r : runs) {
      String ref = r.stepCalibration() == null ? null : r.stepCalibration().reference();
      if (ref == null || reference != null && !reference.equals(ref)) {
        agree = false;
      }
      reference = reference == null ? ref : reference;
    }
    reference = agree ? reference : null;
    Map<String, List<Double>> measured = new LinkedHashMap<>();
    Map<String, List<Double>> errors = new LinkedHashMap<>();
    Map<String, List<Double>> ratioMeasured = new LinkedHashMap<>();
    Map<String, List<Double>> ratioPredicted = new LinkedHashMap<>();
    for (ExperimentValidation.Report r : runs) {
      StepCheck ref = null;
      for (StepCheck c : r.steps()) {
        if (c.name().equals(reference)) {
          ref = c;
        }
      }
      for (StepCheck c : r.steps()) {
        measured.computeIfAbsent(c.name(), n -> new ArrayList<>()).add(c.measured());
        List<Double> e = errors.computeIfAbsent(c.name(), n -> new ArrayList<>());
        if (c.name().equals(reference) || c.predictedFitted() == null) {
          continue;
        }
        e.add(c.predictedFitted() / c.measured() - 1);
        if (ref != null && ref.predictedFitted() != null) {
          String name = c.name() + " / " + reference;
          ratioMeasured
              .computeIfAbsent(name, n -> new ArrayList<>())
              .add(c.measured() / ref.measured());
          ratioPredicted
              .computeIfAbsent(name, n -> new ArrayList<>())
              .add(c.predictedFitted() / ref.predictedFitted());
        }
      }
    }
    List<Variant> variants = new ArrayList<>();
    measured.forEach((n, m) -> variants.add(new Variant(n, m, errors.get(n))));
    List<Ratio> ratios = new ArrayList<>();
    ratioMeasured.forEach((n, m) -> ratios.add(new Ratio(n, m, ratioPredicted.get(n))));
    return new RunSpread(dir, runs, reference, variants, ratios);
  }

  /** The ratio of that name ({@code VARIANT / REFERENCE}), or null. */
  public Ratio ratio(String variant, String reference) {
    String name = variant + " / " + reference;
    return ratios.stream().filter(r -> r.name().equals(name)).findFirst().orElse(null);
  }

  public static double min(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  public static double max(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  public static double median(List<Double> v) {
    return BenchLines.median(v.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
