package io.topolens.lab.experiment;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.BenchSample;
import io.topolens.perf.BenchSamples;
import io.topolens.perf.Calibration;
import io.topolens.perf.Calibrations;
import io.topolens.perf.Calibrator;
import io.topolens.perf.ModelPresets;
import io.topolens.perf.PathFit;
import io.topolens.perf.PerfConstants;
import io.topolens.perf.RunConfig;
import io.topolens.perf.StepModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code predict}'s step time for every variant of an experiment, calibrated from the experiment's
 * own probe: the probe output of every variant that ran (rank 0's, with NCCL's connection lines
 * naming the path) is pooled per path and fitted as {@code predict --calibrate} fits nccl-tests
 * outputs. Runs after the variants, since a variant's path may be measured by another.
 */
final class Predictions {
  private Predictions() {}

  /**
   * The spec's {@code predict:} keys with the variant's layout, nodes, network and offload; {@code
   * intra: shm} when the variant's NCCL logs show SHM and no P2P (P2P disabled, or not possible),
   * {@code intra: tcp} when a pod of several GPUs shows only NET/Socket (P2P and SHM disabled).
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
   * The experiment with each variant's prediction filled in; unchanged without {@code predict:}.
   */
  static Experiment apply(
      ExperimentSpec spec, Experiment e, Path out, HardwareCatalog catalog, Consumer<String> say) {
    if (spec.predict().isEmpty()) {
      return e;
    }
    List<BenchSample> samples = new ArrayList<>();
    BenchSamples reader = new BenchSamples(catalog);
    for (Experiment.Variant v : e.variants()) {
      Path probe = out.resolve(v.dir()).resolve("probe").resolve("rank-0.out");
      if (v.ok() && Files.isRegularFile(probe)) {
        try {
          samples.add(reader.read(probe, v.name() + "/probe/rank-0.out", null));
        } catch (InputProblem p) {
          say.accept("no calibration from " + v.name() + ": " + p.getMessage());
        }
      }
    }
    Calibration calibration = Calibration.none();
    if (!samples.isEmpty()) {
      try {
        calibration =
            Calibrations.fit(
                samples, new Calibrator(PerfConstants.bundled(), Calibrator.DEFAULT_MIN_BYTES));
      } catch (InputProblem p) {
        say.accept("no calibration: " + p.getMessage());
      }
    }
    String basis =
        calibration.isEmpty()
            ? "catalog (no probe with NCCL path lines to calibrate from)"
            : "calibrated from the probe: "
                + String.join(
                    ", ",
                    calibration.fits().stream()
                        .map(PathFit::path)
                        .map(k -> k.label())
                        .distinct()
                        .toList());
    StepModel model = new StepModel(catalog, PerfConstants.bundled(), calibration);
    List<Experiment.Variant> out2 = new ArrayList<>();
    Map<String, Variant> planned = new LinkedHashMap<>();
    spec.variants().forEach(v -> planned.put(v.name(), v));
    for (Experiment.Variant v : e.variants()) {
      Variant p = planned.get(v.name());
      Double seconds = null;
      if (p != null) {
        try {
          seconds =
              model
                  .predict(
                      config(spec, p, v.transports())
                          .toScenario(catalog, ModelPresets.bundled(), "predict")
                          .scenario())
                  .stepS();
        } catch (InputProblem x) {
          say.accept("no prediction for " + v.name() + ": " + x.getMessage());
        }
      }
      out2.add(v.withPrediction(seconds, seconds == null ? null : basis));
    }
    return new Experiment(e.name(), out2);
  }
}
