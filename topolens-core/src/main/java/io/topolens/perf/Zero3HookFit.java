package io.topolens.perf;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.Source;
import io.topolens.nccl.InputProblem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code zero3.moduleHookS} fitted to public DeepSpeed ZeRO-3 runs whose {@code
 * wall_clock_breakdown} timers split forward and backward from the optimizer step (a run's {@code
 * measured.timers} in a {@link ScenarioFile}): each run's framework time per micro-step ({@link
 * DeepSpeedFit}: forward + backward measured less what the model prices there) over its module
 * fetches per micro-step ({@link Zero3Hooks}). Several runs are judged leave-one-out; the seeds'
 * jobs are predicted with the constant as shipped and without the term: nothing is fitted to the
 * seeds.
 */
public final class Zero3HookFit {
  private final HardwareCatalog catalog;
  private final PerfConstants k;

  public Zero3HookFit(HardwareCatalog catalog, PerfConstants k) {
    this.catalog = catalog;
    this.k = k;
  }

  /**
   * One public run with timers.
   *
   * @param fwdBwdS forward + backward the timers measured per optimizer step
   * @param pricedS what the model without the hooks prices there (compute, exposed communication,
   *     host copies)
   * @param perFetchS the run's framework time per micro-step over its module fetches
   * @param halfSeqS the same fit with half the declared sequence length (an undeclared length's
   *     reach)
   * @param doubleSeqS the same fit with twice the declared sequence length
   * @param looS the median of the other runs' values, null with no other run
   * @param looStepS forward + backward predicted with {@code looS}, null without it
   */
  public record Run(
      String name,
      int modules,
      int passes,
      int gradAccum,
      double fwdBwdS,
      double pricedS,
      double perFetchS,
      double halfSeqS,
      double doubleSeqS,
      Double looS,
      Double looStepS,
      String timers,
      String source) {

    /** The leave-one-out error of forward + backward, null without one. */
    public Double looError() {
      return looStepS == null ? null : looStepS / fwdBwdS - 1;
    }
  }

  /**
   * A seed job with the term as shipped and without it.
   *
   * @param instance its instance type (pairs are runs of one type)
   * @param hooksS the term's seconds per step as shipped
   */
  public record Seed(
      String name,
      String instance,
      double measuredS,
      double withS,
      double withoutS,
      double hooksS,
      int fetchesPerStep) {}

  /**
   * What the public timers say.
   *
   * @param fitted the median of the runs' values, null without a run with timers
   * @param shipped the value the model ships
   */
  public record Report(List<Run> runs, Double fitted, double shipped, List<Seed> seeds) {
    public Report {
      runs = List.copyOf(runs);
      seeds = List.copyOf(seeds);
    }
  }

  /**
   * Fits to the runs of {@code config} with timers (hosts from {@code hosts}); judges {@code
   * seeds}.
   */
  public Report of(Path config, Path hosts, Path seeds) throws InputProblem {
    HardwareCatalog cat = catalog.with(hosts);
    StepModel model = new StepModel(cat, k, Calibration.none());
    List<Scenario> scenarios = new ArrayList<>();
    List<DeepSpeedTimers> timers = new ArrayList<>();
    List<RunConfig.Measured> meas = new ArrayList<>();
    for (RunConfig rc : ScenarioFile.read(config)) {
      if (rc.measured() == null || rc.measured().timers() == null) {
        continue;
      }
      Scenario s = rc.toScenario(cat, ModelPresets.bundled(), config.toString()).scenario();
      if (s.workload().strategy() != Strategy.ZERO3) {
        throw new InputProblem(
            config
                + ": run "
                + rc.name()
                + " has timers but is not ZeRO-3; they fit ZeRO-3's hooks");
      }
      Path log =
          (config.getParent() == null ? Path.of(".") : config.getParent())
              .resolve(rc.measured().timers())
              .normalize();
      scenarios.add(s);
      timers.add(DeepSpeedTimers.read(log, log.toString()));
      meas.add(rc.measured());
    }
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < scenarios.size(); i++) {
      values.add(perFetch(model, scenarios.get(i), timers.get(i)));
    }
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < scenarios.size(); i++) {
      Scenario s = scenarios.get(i);
      Workload w = s.workload();
      DeepSpeedTimers t = timers.get(i);
      List<Double> others = new ArrayList<>(values);
      others.remove(i);
      Double loo = PublicOffloadRuns.median(others);
      Double looStep = loo == null ? null : forwardBackward(withValue(cat, loo), s);
      runs.add(
          new Run(
              s.name(),
              Zero3Hooks.modules(w.model()),
              Zero3Hooks.passes(w.checkpointing()),
              w.gradAccum(),
              t.fwdS() + t.bwdS(),
              forwardBackward(model.withoutZero3Hooks(), s),
              values.get(i),
              perFetch(model, withSeq(s, Math.max(1, w.seq() / 2)), t),
              perFetch(model, withSeq(s, w.seq() * 2), t),
              loo,
              looStep,
              t.evidence().file(),
              meas.get(i).source()));
    }
    StepModel without = new StepModel(catalog, k, Calibration.none()).withoutZero3Hooks();
    StepModel shipped = new StepModel(catalog, k, Calibration.none());
    List<Seed> seedRows = new ArrayList<>();
    for (RunConfig rc : ScenarioFile.read(seeds)) {
      Scenario s = rc.toScenario(catalog, ModelPresets.bundled(), seeds.toString()).scenario();
      Prediction with = shipped.predict(s);
      seedRows.add(
          new Seed(
              s.name(),
              s.cluster().instance(),
              rc.measured() == null || rc.measured().jobS() == null
                  ? Double.NaN
                  : rc.measured().jobS(),
              with.jobS(),
              without.predict(s).jobS(),
              Zero3Hooks.seconds(k, s.workload()) * s.workload().gradAccum(),
              Zero3Hooks.perMicroStep(s.workload()) * s.workload().gradAccum()));
    }
    return new Report(runs, PublicOffloadRuns.median(values), k.value(Zero3Hooks.KEY), seedRows);
  }

  /** The run's fitted framework time per micro-step over its module fetches per micro-step. */
  private static double perFetch(StepModel model, Scenario s, DeepSpeedTimers t)
      throws InputProblem {
    return DeepSpeedFit.fit(model, s, t).overheadS() / Zero3Hooks.perMicroStep(s.workload());
  }

  /** The model's step without its CPU optimizer. */
  private static double forwardBackward(StepModel m, Scenario s) throws InputProblem {
    Prediction p = m.predict(s);
    return p.stepS() - p.seconds(Term.Kind.CPU_OPTIMIZER);
  }

  private static Scenario withSeq(Scenario s, int seq) {
    return new Scenario(s.name(), s.workload().withSeq(seq), s.cluster());
  }

  private StepModel withValue(HardwareCatalog cat, double value) {
    return new StepModel(
        cat,
        k.with(
            Map.of(Zero3Hooks.KEY, value),
            new Source(
                "PUBLIC-DS-ZERO3",
                Zero3Hooks.KEY + " fitted by topolens validate-model to the other public timers",
                "bench/results/public-deepspeed/README.md")),
        Calibration.none());
  }
}
