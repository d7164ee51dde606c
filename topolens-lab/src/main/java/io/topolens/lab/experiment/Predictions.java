package io.topolens.lab.experiment;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.Calibration;
import io.topolens.perf.ExperimentValidation;
import io.topolens.perf.ModelPresets;
import io.topolens.perf.PathFit;
import io.topolens.perf.PerfConstants;
import io.topolens.perf.RunConfig;
import io.topolens.perf.Scenario;
import io.topolens.perf.StepModel;
import io.topolens.perf.ValidationReport.StepCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code predict}'s step time for every variant of an experiment, as {@code validate-model} judges
 * an experiment ({@link ExperimentValidation}): each variant's slowest path calibrated by its own
 * probe (the peak busbw it measured), so each layout is predicted from its own probe; then, when a
 * variant measured a step, again with the job's compute fixed by one measured step (that of the
 * variant predicted fastest without offload), the others held out. Runs after the variants.
 */
final class Predictions {
  private static final String OMP = "OMP_NUM_THREADS";

  private Predictions() {}

  /**
   * The spec's {@code predict:} keys with the variant's layout, nodes, network and offload; {@code
   * intra: shm} when the variant's NCCL logs show SHM and no P2P (P2P disabled, or not possible),
   * {@code intra: tcp} when a pod of several GPUs shows only NET/Socket (P2P and SHM disabled);
   * {@code cpuThreads} from the {@code OMP_NUM_THREADS} its ranks were given, if any.
   */
  static RunConfig config(ExperimentSpec spec, Variant v, List<String> transports)
      throws InputProblem {
    Map<String, Object> m = new LinkedHashMap<>(spec.predict());
    m.put("name", v.name());
    m.put("layout", v.layout().toString());
    m.put("nodes", v.nodes());
    if (v.network() != null) {
      m.put("network", v.network());
    }
    if (v.offload() != null) {
      m.put("offload", v.offload());
    }
    String threads = v.env().getOrDefault(OMP, spec.env().get(OMP));
    if (threads != null && !m.containsKey("cpuThreads")) {
      m.put("cpuThreads", parseThreads(threads));
    }
    boolean shm = transports.stream().anyMatch(t -> t.startsWith("SHM"));
    boolean p2p = transports.stream().anyMatch(t -> t.startsWith("P2P"));
    boolean socket = transports.stream().anyMatch(t -> t.startsWith("NET/Socket"));
    if (shm && !p2p && !m.containsKey("intra")) {
      m.put("intra", "shm");
    } else if (socket && !shm && !p2p && v.layout().gpusPerPod() > 1 && !m.containsKey("intra")) {
      // P2P and SHM off: the pod's own GPUs talk over sockets (NCCL_P2P_DISABLE=1
      // NCCL_SHM_DISABLE=1), as predict's --intra tcp
      m.put("intra", "tcp");
    }
    return RunConfig.fromMap(m, "predict");
  }

  /**
   * The experiment with each variant's predictions filled in; unchanged without {@code predict:}.
   */
  static Experiment apply(
      ExperimentSpec spec, Experiment e, HardwareCatalog catalog, Consumer<String> say) {
    if (spec.predict().isEmpty()) {
      return e;
    }
    PerfConstants k = PerfConstants.bundled();
    ExperimentValidation validation = new ExperimentValidation(catalog, k);
    Map<String, Variant> planned = new LinkedHashMap<>();
    spec.variants().forEach(v -> planned.put(v.name(), v));
    Map<String, Double> own = new LinkedHashMap<>();
    Map<String, String> from = new LinkedHashMap<>();
    List<ExperimentValidation.Measured> measured = new ArrayList<>();
    for (Experiment.Variant v : e.variants()) {
      Variant p = planned.get(v.name());
      if (p == null) {
        continue;
      }
      try {
        Scenario s =
            config(spec, p, v.transports())
                .toScenario(catalog, ModelPresets.bundled(), "predict")
                .scenario();
        // without NCCL's path lines (gloo, or no NCCL_DEBUG=INFO) the probe's busbw is no path's
        Map<String, Double> busbw = v.transports().isEmpty() ? Map.of() : v.busbw();
        Calibration probe = validation.probeCalibration(s, busbw).withLaunch(v.launch());
        own.put(v.name(), new StepModel(catalog, k, probe).predict(s).stepS());
        from.put(v.name(), basis(probe, v));
        if (v.ok() && v.stepSeconds() != null) {
          measured.add(
              new ExperimentValidation.Measured(
                  s, busbw, v.stepSeconds().median(), e.name() + ": " + v.name(), v.launch()));
        }
      } catch (InputProblem x) {
        say.accept("no prediction for " + v.name() + ": " + x.getMessage());
      }
    }
    Map<String, Double> withStep = new LinkedHashMap<>();
    String stepFrom = null;
    String stepReference = null;
    try {
      ExperimentValidation.Report r = validation.judge(e.name(), measured, List.of());
      for (StepCheck c : r.steps()) {
        if (c.predictedFitted() != null) {
          withStep.put(c.name(), c.predictedFitted());
        }
      }
      ExperimentValidation.StepCalibration c = r.stepCalibration();
      if (c != null) {
        stepReference = c.reference();
        stepFrom =
            String.format(
                Locale.ROOT,
                "%s's measured step (%.3g s, %.3g s predicted) fixes the job's MFU at %.3f (the"
                    + " model's %.3f)",
                c.reference(),
                c.measuredS(),
                c.predictedS(),
                c.mfu(),
                c.modelMfu());
      }
      r.leftOut().forEach(l -> say.accept("no prediction with one step: " + l));
    } catch (InputProblem x) {
      say.accept("no prediction with one step: " + x.getMessage());
    }
    List<Experiment.Variant> out = new ArrayList<>();
    for (Experiment.Variant v : e.variants()) {
      Double step = withStep.get(v.name());
      out.add(
          v.withPrediction(
              own.get(v.name()),
              from.get(v.name()),
              step,
              step == null ? null : stepFrom,
              step == null ? null : stepReference));
    }
    return new Experiment(e.name(), out);
  }

  /** What a variant's prediction rests on: its probe's rate on its slowest path, or the catalog. */
  private static String basis(Calibration probe, Experiment.Variant v) {
    if (!probe.isEmpty()) {
      PathFit f = probe.fits().getFirst();
      return String.format(
          Locale.ROOT, "its own probe: %s at %.3g GB/s busbw", f.path().label(), f.busBwGBps());
    }
    if (v.busbw().isEmpty()) {
      return "catalog (no probe busbw of its own)";
    }
    return "catalog (no NCCL path lines in its logs to tie its probe's busbw to a path)";
  }

  private static int parseThreads(String value) throws InputProblem {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException x) {
      throw new InputProblem(OMP + "=" + value + ": not a number of threads");
    }
  }
}
