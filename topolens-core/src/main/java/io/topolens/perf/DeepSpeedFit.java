package io.topolens.perf;

import io.topolens.nccl.InputProblem;
import java.util.List;
import java.util.Locale;

/**
 * Fits the two DeepSpeed terms the model cannot derive to a run's own {@code wall_clock_breakdown}
 * timers (issue 12): the framework time per micro-step (ZeRO-3's parameter fetches and hooks), as
 * forward + backward measured minus what the model prices there, over the micro-steps; and the CPU
 * optimizer's rate, as the parameters on a host over the measured optimizer step minus the model's
 * host copies. Each fitted value says what it was fitted to.
 *
 * @param overheadS fitted framework time per micro-step
 * @param cpuAdamRate fitted parameters per second per host
 * @param fitted one line per fitted value, with the measurement it came from
 */
public record DeepSpeedFit(double overheadS, Double cpuAdamRate, List<String> fitted) {

  /**
   * Fits {@code s} (a DeepSpeed ZeRO run) to {@code t}; the scenario's own overhead and ZeRO-3's
   * module hooks, which the fitted framework time stands in for, are left out of the model.
   */
  public static DeepSpeedFit fit(StepModel withHooks, Scenario s, DeepSpeedTimers t)
      throws InputProblem {
    StepModel model = withHooks.withoutZero3Hooks();
    if (!s.workload().strategy().deepSpeed()) {
      throw new InputProblem(
          t.evidence().file() + ": DeepSpeed timers fit a DeepSpeed ZeRO run; this is " + s.name());
    }
    Workload w = s.workload().withOverhead(0);
    int ga = w.gradAccum();
    double measured = t.fwdS() + t.bwdS();
    // the overhead that makes the model's forward and backward (everything but the CPU optimizer)
    // take what the timers measured; communication hides behind it as it grows, so bisect
    double lo = 0;
    double hi = measured / ga;
    double priced = forwardBackward(model, s, w, 0);
    for (int i = 0; i < 100 && priced < measured; i++) {
      double mid = (lo + hi) / 2;
      if (forwardBackward(model, s, w, mid) >= measured) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    // the smallest overhead that explains the timers: more would hide under communication unseen
    double overhead = priced < measured ? hi : 0;
    String from =
        String.format(
            Locale.ROOT,
            "%s:%d: forward %.3f s + backward %.3f s per step (median of %d) against %.3f s the"
                + " model prices there (compute, exposed communication, host copies), over %d"
                + " micro-steps",
            t.evidence().file(),
            t.evidence().line(),
            t.fwdS(),
            t.bwdS(),
            t.steps(),
            priced,
            ga);
    Double rate = null;
    String rateLine = null;
    if (w.offload().any() && t.stepS() > 0) {
      Cluster c = s.cluster();
      double onHost = w.model().params() * (double) (c.podsPerNode() * c.gpusPerPod()) / c.ranks();
      rate = onHost / t.stepS();
      rateLine =
          String.format(
              Locale.ROOT,
              "CPU optimizer rate %.3g parameters/s per host: %.3g parameters on a host over the"
                  + " measured optimizer step, %.3f s (%s:%d)",
              rate,
              onHost,
              t.stepS(),
              t.evidence().file(),
              t.evidence().line());
    }
    String overheadLine =
        String.format(Locale.ROOT, "framework time %.3f s per micro-step: %s", overhead, from)
            + (priced >= measured
                ? "; the priced terms already take that long, so framework time hidden under"
                    + " communication cannot be told from these timers"
                : "");
    return new DeepSpeedFit(
        overhead, rate, rateLine == null ? List.of(overheadLine) : List.of(overheadLine, rateLine));
  }

  /** The model's step without its CPU optimizer, with {@code overhead} per micro-step. */
  private static double forwardBackward(StepModel m, Scenario s, Workload w, double overhead)
      throws InputProblem {
    Prediction p = m.predict(new Scenario(s.name(), w.withOverhead(overhead), s.cluster()));
    return p.stepS() - p.seconds(Term.Kind.CPU_OPTIMIZER);
  }

  /** The scenario with the fitted terms in place of its own. */
  public Scenario apply(Scenario s) {
    Workload w = s.workload().withOverhead(overheadS);
    if (cpuAdamRate != null) {
      w = w.withCpuAdamRate(cpuAdamRate);
    }
    return new Scenario(s.name(), w, s.cluster());
  }
}
