package io.topolens.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.catalog.HardwareCatalog;
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
 * between variants of the same job are compared. Nothing else is fitted.
 */
public final class ExperimentValidation {
  private final HardwareCatalog catalog;
  private final PerfConstants k;

  public ExperimentValidation(HardwareCatalog catalog, PerfConstants k) {
    this.catalog = catalog;
    this.k = k;
  }

  /**
   * What was compared, and what could not be.
   *
   * @param workloads each compared variant's workload, by name
   */
  public record Report(
      String results,
      List<StepCheck> steps,
      List<RatioCheck> ratios,
      List<String> leftOut,
      Map<String, Workload> workloads) {}

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
    List<Scenario> scenarios = new ArrayList<>();
    List<Double> measured = new ArrayList<>();
    List<Prediction> predicted = new ArrayList<>();
    List<StepCheck> steps = new ArrayList<>();
    List<String> leftOut = new ArrayList<>();
    Map<String, Workload> workloads = new LinkedHashMap<>();
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
      Scenario s = rc.toScenario(catalog, ModelPresets.bundled(), config.toString()).scenario();
      StepModel model = new StepModel(catalog, k, probeCalibration(s, v.path("busbw")));
      Prediction p = model.predict(s);
      scenarios.add(s);
      workloads.put(name, s.workload());
      measured.add(step.path("median").asDouble());
      predicted.add(p);
      steps.add(
          new StepCheck(
              name, step.path("median").asDouble(), p.stepS(), null, results + ": " + name));
    }
    return new Report(
        results.toString(),
        steps,
        ModelValidation.pairRatios(scenarios, measured, predicted),
        leftOut,
        workloads);
  }

  /**
   * The variant's slowest path at the best busbw its probe measured over the collectives the model
   * prices (a bandwidth, no latency): the probe of each layout calibrates that layout.
   */
  private Calibration probeCalibration(Scenario s, JsonNode busbw) throws InputProblem {
    double best = 0;
    for (String op : List.of("all_gather", "reduce_scatter", "all_reduce")) {
      best = Math.max(best, busbw.path(op).asDouble(0));
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
