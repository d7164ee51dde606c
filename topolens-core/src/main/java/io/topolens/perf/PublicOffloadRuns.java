package io.topolens.perf;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.Source;
import io.topolens.nccl.InputProblem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Public DeepSpeed ZeRO-Offload runs (bench/results/public-deepspeed, declared in a {@link
 * ScenarioFile} with their hosts in a catalog file) judged by the model as shipped, then the one
 * DeepSpeed offload constant they bear on refitted to them leave-one-out: {@code
 * cpuAdam.deepspeed}, DeepSpeedCPUAdam's parameters per second per host. Each offload run implies a
 * host rate, the parameters its host updates over the measured step less every other priced term;
 * each run is predicted with the median of the implied rates of the runs of other setups (a setup
 * two sources measured is held out whole), and the seeds' jobs with the median of all of them:
 * nothing is fitted to the seeds.
 */
public final class PublicOffloadRuns {
  static final String RATE = "cpuAdam.deepspeed";

  private final HardwareCatalog catalog;
  private final PerfConstants k;

  public PublicOffloadRuns(HardwareCatalog catalog, PerfConstants k) {
    this.catalog = catalog;
    this.k = k;
  }

  /**
   * One public run.
   *
   * @param instance its host's type (public-deepspeed-catalog.json)
   * @param threads CPU threads per training process as declared, null where undeclared
   * @param paramsOffloaded whether the run offloads parameters too (ZeRO-3 {@code offload_param})
   * @param predicted the step the shipped model predicts
   * @param cpuS its CPU optimizer term
   * @param onHost parameters the host's CPU optimizer updates per step (0 without offload)
   * @param impliedRate the host rate the measured step implies, null without offload or when the
   *     other terms already take longer than the measured step
   * @param looRate the median of the other runs' implied rates, null where this run has none
   * @param looPredicted the step with {@code looRate} in place of the shipped rate
   */
  public record Run(
      String name,
      String instance,
      Integer threads,
      boolean paramsOffloaded,
      double measured,
      double predicted,
      double cpuS,
      double onHost,
      Double impliedRate,
      Double looRate,
      Double looPredicted,
      String source) {

    /** The shipped model's error. */
    public double error() {
      return predicted / measured - 1;
    }

    /** The leave-one-out error, null where there is none. */
    public Double looError() {
      return looPredicted == null ? null : looPredicted / measured - 1;
    }
  }

  /**
   * A seed job predicted with the shipped rate and with the rate fitted to every public run.
   *
   * @param instance its instance type (pairs are runs of one type)
   * @param measuredS the seed's measured job time
   */
  public record Seed(
      String name, String instance, double measuredS, double shippedS, double fittedS) {}

  /**
   * What the public runs say.
   *
   * @param fittedRate the median of every run's implied rate, null when none implies one
   * @param shippedRate the rate the model ships
   */
  public record Report(
      String config, List<Run> runs, Double fittedRate, double shippedRate, List<Seed> seeds) {
    public Report {
      runs = List.copyOf(runs);
      seeds = List.copyOf(seeds);
    }

    /** The runs with a leave-one-out prediction. */
    public List<Run> heldOut() {
      return runs.stream().filter(r -> r.looPredicted() != null).toList();
    }
  }

  /**
   * Judges the runs of {@code config} (hosts from {@code hosts}), and the seeds' runs of {@code
   * seeds} with the rate they support.
   */
  public Report of(Path config, Path hosts, Path seeds) throws InputProblem {
    HardwareCatalog cat = catalog.with(hosts);
    StepModel model = new StepModel(cat, k, Calibration.none());
    List<Scenario> runs = new ArrayList<>();
    List<RunConfig.Measured> meas = new ArrayList<>();
    for (RunConfig rc : ScenarioFile.read(config)) {
      if (rc.measured() == null || rc.measured().stepS() == null) {
        throw new InputProblem(config + ": run " + rc.name() + " has no measured.stepS");
      }
      runs.add(rc.toScenario(cat, ModelPresets.bundled(), config.toString()).scenario());
      meas.add(rc.measured());
    }
    List<Double> implied = new ArrayList<>();
    List<Prediction> shipped = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      Prediction p = model.predict(runs.get(i));
      shipped.add(p);
      implied.add(impliedRate(runs.get(i), p, meas.get(i).stepS()));
    }
    List<Run> out = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      Double loo = null;
      Double looStep = null;
      if (implied.get(i) != null) {
        // the run is held out with every run of its setup: one setup measured again by another
        // source (the DeepSpeed blog and PR 7474, one author's machine) is one datum, not two
        List<Double> others = new ArrayList<>();
        for (int j = 0; j < runs.size(); j++) {
          if (!sameSetup(runs.get(i), runs.get(j))) {
            others.add(implied.get(j));
          }
        }
        loo = median(others);
        if (loo != null) {
          looStep = withRate(cat, loo).predict(runs.get(i)).stepS();
        }
      }
      Prediction p = shipped.get(i);
      out.add(
          new Run(
              runs.get(i).name(),
              runs.get(i).cluster().instance(),
              runs.get(i).workload().cpuThreads(),
              runs.get(i).workload().offload() == Offload.FULL,
              meas.get(i).stepS(),
              p.stepS(),
              p.seconds(Term.Kind.CPU_OPTIMIZER),
              onHost(runs.get(i)),
              implied.get(i),
              loo,
              looStep,
              meas.get(i).source()));
    }
    Double fitted = median(implied);
    List<Seed> seedRows = new ArrayList<>();
    if (fitted != null) {
      StepModel refit = withRate(catalog, fitted);
      StepModel base = new StepModel(catalog, k, Calibration.none());
      for (RunConfig rc : ScenarioFile.read(seeds)) {
        Scenario s = rc.toScenario(catalog, ModelPresets.bundled(), seeds.toString()).scenario();
        seedRows.add(
            new Seed(
                s.name(),
                s.cluster().instance(),
                rc.measured() == null || rc.measured().jobS() == null
                    ? Double.NaN
                    : rc.measured().jobS(),
                base.predict(s).jobS(),
                refit.predict(s).jobS()));
      }
    }
    return new Report(config.toString(), out, fitted, k.value(RATE), seedRows);
  }

  /**
   * Whether two runs are one setup (model, parallelism, threads, offload, host and layout alike),
   * whatever their names and measurements.
   */
  static boolean sameSetup(Scenario a, Scenario b) {
    return a.workload().equals(b.workload()) && a.cluster().equals(b.cluster());
  }

  /**
   * The host rate a measured step implies: the parameters the host updates over what is left of the
   * step once every other priced term is taken out; null without DeepSpeed offload or when nothing
   * is left.
   */
  static Double impliedRate(Scenario s, Prediction p, double measured) {
    double onHost = onHost(s);
    double rest = measured - (p.stepS() - p.seconds(Term.Kind.CPU_OPTIMIZER));
    if (onHost <= 0 || rest <= 0 || !s.workload().strategy().deepSpeed()) {
      return null;
    }
    return onHost / rest;
  }

  /** Parameters the CPU optimizer of one host updates per step; 0 without offload. */
  static double onHost(Scenario s) {
    if (!s.workload().offload().any()) {
      return 0;
    }
    Cluster c = s.cluster();
    return s.workload().model().params() * (double) (c.podsPerNode() * c.gpusPerPod()) / c.ranks();
  }

  private StepModel withRate(HardwareCatalog cat, double rate) {
    PerfConstants refit =
        k.with(
            Map.of(RATE, rate),
            new Source(
                "PUBLIC-DS-OFFLOAD",
                RATE + " refitted by topolens validate-model to public DeepSpeed ZeRO-Offload runs",
                "bench/results/public-deepspeed/README.md"));
    return new StepModel(cat, refit, Calibration.none());
  }

  /** The median of the values that are not null, null for none. */
  static Double median(List<Double> values) {
    List<Double> v = values.stream().filter(x -> x != null).toList();
    return v.isEmpty() ? null : RunSpread.median(v);
  }
}
