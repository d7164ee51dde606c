package io.topolens.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.bench.ProbeLaunch;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.Source;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.ValidationReport.RatioCheck;
import io.topolens.perf.ValidationReport.StepCheck;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An experiment's results.json (topolens experiment) against the model: each variant that ran and
 * measured a step is predicted from the run of the same name in a configuration file, with the path
 * its pods' traffic takes calibrated from that variant's own probe (its peak busbw), and the ratios
 * between variants of the same job are compared. Then again with one measured step as well (issue
 * 12's "a probe of each layout and one measured step"): the step of the variant the model predicts
 * fastest without offload fixes the job's compute on this machine (the MFU that makes its predicted
 * step the measured one), and every other variant of the same job is predicted with it; that
 * variant is the fit, the others are held out.
 */
public final class ExperimentValidation {
  private final HardwareCatalog catalog;
  private final PerfConstants k;
  private final boolean launch;

  public ExperimentValidation(HardwareCatalog catalog, PerfConstants k) {
    this(catalog, k, true);
  }

  private ExperimentValidation(HardwareCatalog catalog, PerfConstants k, boolean launch) {
    this.catalog = catalog;
    this.k = k;
    this.launch = launch;
  }

  /**
   * The same judge with the probes' launch measurements left out: every variant's per-layer launch
   * time the fit host's, as before the probe measured it.
   */
  public ExperimentValidation withoutLaunch() {
    return new ExperimentValidation(catalog, k, false);
  }

  /**
   * What was compared, and what could not be.
   *
   * @param workloads each compared variant's workload, by name
   * @param carried ratios between two layouts whose pods talk over sockets with different flows,
   *     both calibrated by the probe of the layout of more flows, carried to the other by {@link
   *     SocketFlows}: {@code predictedFitted} with {@code path.tcp.flowExponent}, {@code predicted}
   *     with exponent 0 (the flows sharing a fixed rate); empty when there is no such pair
   * @param launches the probes' launch measurements by variant name, where a probe measured one
   */
  public record Report(
      String results,
      List<StepCheck> steps,
      List<RatioCheck> ratios,
      List<String> leftOut,
      Map<String, Workload> workloads,
      StepCalibration stepCalibration,
      List<RatioCheck> carried,
      Map<String, ProbeLaunch> launches) {

    public Report {
      carried = List.copyOf(carried);
      launches = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(launches));
    }
  }

  /**
   * One measured step turned into the job's compute on this machine.
   *
   * @param reference the variant whose step was used (the fastest predicted without offload)
   * @param measuredS its measured step
   * @param predictedS its step as the probe-calibrated model predicts it
   * @param mfu the MFU that makes its predicted step {@code measuredS}, used for every variant
   * @param modelMfu the MFU the model derives for the job without the step
   */
  public record StepCalibration(
      String reference, double measuredS, double predictedS, double mfu, double modelMfu) {}

  /**
   * One variant that measured a step, as the model takes it.
   *
   * @param scenario its run (workload, layout, paths)
   * @param busbw its probe's peak busbw per collective, GB/s ({@code all_gather}, {@code
   *     reduce_scatter}, {@code all_reduce}); empty without a probe
   * @param stepS its measured median step
   * @param source where the step was measured
   * @param launch its probe's launch micro-benchmark, or null: the per-layer launch time is then
   *     the fit host's
   */
  public record Measured(
      Scenario scenario,
      Map<String, Double> busbw,
      double stepS,
      String source,
      ProbeLaunch launch) {

    public Measured {
      busbw = Map.copyOf(busbw);
    }

    /** Without a launch measurement. */
    public Measured(Scenario scenario, Map<String, Double> busbw, double stepS, String source) {
      this(scenario, busbw, stepS, source, null);
    }
  }

  public Report run(Path results, Path config) throws InputProblem {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(results.toFile());
    } catch (IOException e) {
      throw new InputProblem(results + ": not JSON: " + ScenarioFile.firstLine(e.getMessage()));
    }
    if (!root.path("variants").isArray()) {
      throw new InputProblem(results + ": no \"variants\" list (an experiment's results.json)");
    }
    Map<String, RunConfig> runs = new LinkedHashMap<>();
    for (RunConfig rc : ScenarioFile.read(config)) {
      runs.put(rc.name(), rc);
    }
    List<Measured> measured = new ArrayList<>();
    List<String> leftOut = new ArrayList<>();
    for (JsonNode v : root.path("variants")) {
      String name = v.path("name").asText();
      JsonNode step = v.path("stepSeconds");
      if (!"ok".equals(v.path("status").asText()) || !step.has("median")) {
        leftOut.add(name + ": " + v.path("status").asText("no status") + ", no measured step");
        continue;
      }
      RunConfig rc = runs.get(name);
      if (rc == null) {
        leftOut.add(name + ": no run of that name in " + config);
        continue;
      }
      Map<String, Double> busbw = new LinkedHashMap<>();
      v.path("busbw").properties().forEach(f -> busbw.put(f.getKey(), f.getValue().asDouble(0)));
      measured.add(
          new Measured(
              rc.toScenario(catalog, ModelPresets.bundled(), config.toString()).scenario(),
              busbw,
              step.path("median").asDouble(),
              results + ": " + name,
              launch(v.path("launch"), results)));
    }
    return judge(results.toString(), measured, leftOut);
  }

  private static Map<String, ProbeLaunch> launches(List<Measured> runs) {
    Map<String, ProbeLaunch> m = new LinkedHashMap<>();
    for (Measured v : runs) {
      if (v.launch() != null) {
        m.put(v.scenario().name(), v.launch());
      }
    }
    return m;
  }

  /** A variant's {@code launch} object, or null when it has none. */
  private static ProbeLaunch launch(JsonNode node, Path results) throws InputProblem {
    if (node.isMissingNode() || node.isNull()) {
      return null;
    }
    try {
      return new ObjectMapper().treeToValue(node, ProbeLaunch.class);
    } catch (IOException e) {
      throw new InputProblem(
          results
              + ": a variant's \"launch\" is not the probe's launch measurement: "
              + ScenarioFile.firstLine(e.getMessage()));
    }
  }

  /**
   * The variants of one experiment, each predicted with its slowest path calibrated by its own
   * probe, then with one measured step as well; {@code leftOut} names what could not be compared.
   */
  public Report judge(String results, List<Measured> runs, List<String> leftOut)
      throws InputProblem {
    leftOut = new ArrayList<>(leftOut);
    List<Scenario> scenarios = new ArrayList<>();
    List<Double> measured = new ArrayList<>();
    List<Prediction> predicted = new ArrayList<>();
    List<StepModel> models = new ArrayList<>();
    List<String> sources = new ArrayList<>();
    List<Map<String, Double>> probes = new ArrayList<>();
    Map<String, Workload> workloads = new LinkedHashMap<>();
    for (Measured v : runs) {
      Scenario s = v.scenario();
      StepModel model =
          new StepModel(
              catalog,
              k,
              probeCalibration(s, v.busbw()).withLaunchScaled(launch ? v.launch() : null));
      scenarios.add(s);
      workloads.put(s.name(), s.workload());
      measured.add(v.stepS());
      predicted.add(model.predict(s));
      models.add(model);
      sources.add(v.source());
      probes.add(v.busbw());
    }
    int ref = reference(scenarios, predicted);
    StepCalibration cal = null;
    List<Double> fitted = null;
    if (ref >= 0) {
      Scenario r = scenarios.get(ref);
      StepModel m = models.get(ref);
      double target = measured.get(ref);
      if (stepWithMfu(m, r, 1.0) < target) {
        double mfu = ModelValidation.solve(x -> stepWithMfu(m, r, x), target, 1e-4, 1.0, true);
        cal =
            new StepCalibration(
                r.name(),
                target,
                predicted.get(ref).stepS(),
                mfu,
                // the compute term is FLOPs / (peak x MFU): the model's own MFU from its term
                mfu * computeWithMfu(m, r, mfu) / forwardBackward(predicted.get(ref)));
        fitted = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
          fitted.add(
              ModelValidation.sameJob(scenarios.get(i), r, true)
                  ? stepWithMfu(models.get(i), scenarios.get(i), mfu)
                  : null);
        }
      } else {
        leftOut.add(
            r.name()
                + ": its measured step ("
                + target
                + " s) is shorter than the model's other terms at MFU 1: no compute to calibrate");
      }
    }
    List<StepCheck> steps = new ArrayList<>();
    for (int i = 0; i < scenarios.size(); i++) {
      steps.add(
          new StepCheck(
              scenarios.get(i).name(),
              measured.get(i),
              predicted.get(i).stepS(),
              fitted == null ? null : fitted.get(i),
              sources.get(i)));
    }
    return new Report(
        results,
        steps,
        ModelValidation.pairRatios(scenarios, measured, predicted, fitted),
        leftOut,
        workloads,
        cal,
        carried(scenarios, measured, predicted, probes),
        launches(runs));
  }

  /**
   * Each pair of one job whose pods talk over sockets with different flows: the layout of fewer
   * flows predicted from the other's probe, its rate carried by {@link SocketFlows}.
   */
  private List<RatioCheck> carried(
      List<Scenario> scenarios,
      List<Double> measured,
      List<Prediction> predicted,
      List<Map<String, Double>> probes)
      throws InputProblem {
    List<RatioCheck> out = new ArrayList<>();
    for (int i = 0; i < scenarios.size(); i++) {
      int flows = socketFlows(scenarios.get(i));
      for (int j = 0; j < scenarios.size(); j++) {
        int fewer = socketFlows(scenarios.get(j));
        if (flows <= fewer
            || fewer == 0
            || !ModelValidation.sameJob(scenarios.get(i), scenarios.get(j), false)) {
          continue;
        }
        Calibration from = probeCalibration(scenarios.get(i), probes.get(i));
        PathFit fit = from.fit(PathKind.TCP).orElse(null);
        if (fit == null) {
          continue;
        }
        Calibration carried = Calibration.of(List.of(fit.withNetHops(flows)));
        PerfConstants fixed =
            k.with(
                Map.of(SocketFlows.EXPONENT, 0.0),
                new Source("FIXED-RATE", "the flows sharing a fixed socket rate", ""));
        double own = predicted.get(i).stepS();
        out.add(
            new RatioCheck(
                scenarios.get(i).name() + " / " + scenarios.get(j).name(),
                measured.get(i) / measured.get(j),
                own / new StepModel(catalog, fixed, carried).predict(scenarios.get(j)).stepS(),
                own / new StepModel(catalog, k, carried).predict(scenarios.get(j)).stepS(),
                true,
                false));
      }
    }
    return out;
  }

  /** Socket flows of the variant's ring when its pods share one host over sockets, else 0. */
  private int socketFlows(Scenario s) throws InputProblem {
    Cluster c = s.cluster();
    Link slowest = new StepModel(catalog, k, Calibration.none()).resolve(c).group().bottleneck();
    if (c.nodes() != 1 || c.ncclNodes() < 2 || slowest == null || slowest.path() != PathKind.TCP) {
      return 0;
    }
    return SocketFlows.ringFlows(c.podsPerNode(), c.gpusPerPod(), c.intra() == PathKind.TCP);
  }

  /** The variant the model predicts fastest without offload, or -1 when none. */
  private static int reference(List<Scenario> runs, List<Prediction> predicted) {
    int best = -1;
    for (int i = 0; i < runs.size(); i++) {
      if (!runs.get(i).workload().offload().any()
          && (best < 0 || predicted.get(i).stepS() < predicted.get(best).stepS())) {
        best = i;
      }
    }
    return best;
  }

  private static double stepWithMfu(StepModel m, Scenario s, double mfu) {
    return withMfu(m, s, mfu).stepS();
  }

  private static double computeWithMfu(StepModel m, Scenario s, double mfu) {
    return forwardBackward(withMfu(m, s, mfu));
  }

  /** The forward and backward's term (not the GPU optimizer's, also a compute term). */
  private static double forwardBackward(Prediction p) {
    return p.terms().stream()
        .filter(t -> t.kind() == Term.Kind.COMPUTE && t.label().equals("compute"))
        .mapToDouble(Term::seconds)
        .sum();
  }

  private static Prediction withMfu(StepModel m, Scenario s, double mfu) {
    try {
      return m.predict(new Scenario(s.name(), s.workload().withMfu(mfu), s.cluster()));
    } catch (InputProblem e) {
      throw new IllegalStateException("predicted once, cannot fail again: " + e.getMessage(), e);
    }
  }

  /**
   * The variant's slowest path at the best busbw its probe measured over the collectives the model
   * prices (a bandwidth, no latency): the probe of each layout calibrates that layout. No fit (the
   * catalog's rates) when the probe measured none of them.
   */
  public Calibration probeCalibration(Scenario s, Map<String, Double> busbw) throws InputProblem {
    double best = 0;
    for (String op : List.of("all_gather", "reduce_scatter", "all_reduce")) {
      best = Math.max(best, busbw.getOrDefault(op, 0.0));
    }
    if (best <= 0) {
      return Calibration.none();
    }
    Link slowest =
        new StepModel(catalog, k, Calibration.none()).resolve(s.cluster()).group().bottleneck();
    if (slowest == null) {
      return Calibration.none();
    }
    return Calibration.of(
        List.of(
            new PathFit(slowest.path(), best, 0, 1, 0, 0, List.of("the variant's probe"), null)));
  }
}
