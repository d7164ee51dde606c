package io.topolens.report;

import io.topolens.experiment.Experiment;
import java.util.Locale;

/**
 * One of {@code predict}'s step times for a variant as the experiment table shows it, read from
 * results.json: the seconds with their error against the variant's measured median step and what
 * the prediction rests on, or a dash and why there is none.
 *
 * @param seconds the predicted step, or null (then {@code why} says why)
 * @param error (predicted - measured) / measured median as a signed percent ({@code +10%}, {@code
 *     -15%}, {@code 0%}); null without a measured step (then {@code why} says so)
 * @param basis what the number rests on: the variant's own probe (or the catalog), or whose step
 *     fixed the job's compute; null without a prediction
 * @param why why there is no number or no error; null when both are there
 */
public record PredictedStep(String seconds, String error, String basis, String why) {

  /** Predicted with its slowest path at the busbw its own probe measured. */
  public static PredictedStep fromProbe(Experiment e, Experiment.Variant v) {
    if (v.predictedSeconds() == null) {
      return none(
          predicts(e)
              ? "the model took no configuration from it (the experiment's output says why)"
              : "no predict: in the spec");
    }
    return of(v.predictedSeconds(), v.predictionError(), v.predictedFrom(), v);
  }

  /**
   * Predicted with the job's compute fixed by one measured step: {@code reference}'s (its own step
   * for the reference itself; the others held out).
   *
   * @param reference the variant whose step fixed the compute, or null when none did
   */
  public static PredictedStep withOneStep(
      Experiment e, Experiment.Variant v, Experiment.Variant reference) {
    if (v.predictedWithStepSeconds() == null || reference == null) {
      return none(withoutOneStep(e, v));
    }
    String basis =
        v == reference
            ? "the reference: its own measured step"
            : "held out; " + reference.name() + "'s measured step fixed the compute";
    return of(v.predictedWithStepSeconds(), v.predictionWithStepError(), basis, v);
  }

  /**
   * The variant whose measured step fixed the compute of {@code v}'s prediction with one step: the
   * one {@code predictedWithStepReference} names; null without, or when it names none of this
   * experiment's.
   */
  public static Experiment.Variant reference(Experiment e, Experiment.Variant v) {
    String name = v.predictedWithStepReference();
    return name == null
        ? null
        : e.variants().stream().filter(r -> name.equals(r.name())).findFirst().orElse(null);
  }

  private static String withoutOneStep(Experiment e, Experiment.Variant v) {
    if (!predicts(e)) {
      return "no predict: in the spec";
    }
    if (v.predictedSeconds() == null) {
      return "not predicted from its probe either";
    }
    if (e.variants().stream().noneMatch(PredictedStep::measured)) {
      return "no variant measured a step";
    }
    if (!measured(v)) {
      return "it measured no step";
    }
    if (e.variants().stream().allMatch(x -> x.predictedWithStepSeconds() == null)) {
      return "no measured step fixed the job's compute (the experiment's output says why)";
    }
    if (v.predictedWithStepSeconds() == null) {
      return "another job than the reference's";
    }
    return v.predictedWithStepReference() == null
        ? "results.json names no reference (no predictedWithStepReference: written before it)"
        : "results.json's predictedWithStepReference names no variant of this experiment";
  }

  private static PredictedStep of(
      double seconds, Double error, String basis, Experiment.Variant v) {
    return new PredictedStep(
        Num.sig(seconds),
        error == null ? null : percent(error),
        basis,
        error != null
            ? null
            : v.stepSeconds() == null ? "no measured step" : "its measured step is 0");
  }

  private static PredictedStep none(String why) {
    return new PredictedStep(null, null, null, why);
  }

  /** A signed whole percent, as the experiment's own table writes it: +10%, -15%, 0%. */
  static String percent(double error) {
    long pct = Math.round(error * 100);
    return pct == 0 ? "0%" : String.format(Locale.ROOT, "%+d%%", pct);
  }

  private static boolean predicts(Experiment e) {
    return e.variants().stream().anyMatch(v -> v.predictedSeconds() != null);
  }

  private static boolean measured(Experiment.Variant v) {
    return v.ok() && v.stepSeconds() != null;
  }
}
