package io.topolens.perf;

import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.InstanceSpec;
import io.topolens.catalog.Source;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.BenchLines.CpuAdamPoint;
import io.topolens.perf.BenchLines.TrainingRun;
import io.topolens.perf.ValidationReport.Fitted;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges the compute and offload terms on one-GPU measurements (bench/fsdp-step.py, cpu-adam.py,
 * gpu-micro.py output): every training run is predicted by {@link StepModel} with the constants
 * fitted to the other runs (leave-one-out), and the CPU optimizer's Amdahl fit is judged the same
 * way on its thread counts. Runs with offload are in no fit.
 */
public final class OneGpuValidation {
  /** The target of issue 12: one-GPU step times within 30%. */
  public static final double TARGET = 0.30;

  private final HardwareCatalog catalog;
  private final PerfConstants k;

  public OneGpuValidation(HardwareCatalog catalog, PerfConstants k) {
    this.catalog = catalog;
    this.k = k;
  }

  /**
   * One run: measured, predicted with the constants fitted to the other runs, and with those fitted
   * to all; which term set the pace.
   */
  public record Row(
      String tag,
      boolean offload,
      double measured,
      double heldOut,
      double inSample,
      String pace,
      String evidence) {
    public double heldOutError() {
      return heldOut / measured - 1;
    }
  }

  /** The CPU optimizer at one thread count: measured and held-out seconds per parameter. */
  public record CpuRow(int threads, double measured, double heldOut, String evidence) {
    public double heldOutError() {
      return heldOut / measured - 1;
    }
  }

  /**
   * Everything: the fits on all the data, and the rows.
   *
   * @param peers FSDP2's launches against world size (bench/fsdp-phases.py runs), or null
   */
  public record Report(
      List<String> files,
      List<String> malformed,
      List<Fitted> fitted,
      List<Row> rows,
      List<CpuRow> cpu,
      LaunchPeers peers) {
    /** The held-out error of largest size among runs with or without offload, with its sign. */
    public double worstHeldOut(boolean offload) {
      return rows.stream()
          .filter(r -> r.offload() == offload)
          .mapToDouble(Row::heldOutError)
          .reduce((a, b) -> Math.abs(a) >= Math.abs(b) ? a : b)
          .orElse(Double.NaN);
    }
  }

  public Report run(List<Path> paths) throws InputProblem {
    return run(
        BenchLines.read(paths), String.join(", ", paths.stream().map(Path::toString).toList()));
  }

  /** As {@link #run(List)}, on lines already read from {@code named}. */
  public Report run(BenchLines.Read data, String named) throws InputProblem {
    List<TrainingRun> runs = data.runs().stream().filter(r -> r.world() == 1).toList();
    if (runs.isEmpty()) {
      throw new InputProblem(
          named + ": no one-GPU training runs (bench/fsdp-step.py summary lines with world 1)");
    }
    double bytes = k.value("optimizer.gpu.bytesPerParam");
    double kernels = k.value("cpuAdam.torch.kernelsPerTensor");
    OneGpuFit all = OneGpuFit.fit(runs, data.cpuAdam(), data.copies(), catalog, bytes, kernels);
    PerfConstants fittedAll = k.with(all.values(), source("all runs"));
    List<Row> rows = new ArrayList<>();
    for (TrainingRun r : runs) {
      List<TrainingRun> others = runs.stream().filter(o -> o != r).toList();
      OneGpuFit loo = OneGpuFit.fit(others, data.cpuAdam(), data.copies(), catalog, bytes, kernels);
      PerfConstants held = k.with(loo.values(), source("runs but " + r.tag()));
      Prediction p = predict(r, held);
      rows.add(
          new Row(
              r.tag(),
              r.offload(),
              r.stepS(),
              p.stepS(),
              predict(r, fittedAll).stepS(),
              pace(p),
              r.evidence().file() + ":" + r.evidence().line()));
    }
    List<CpuRow> cpu = new ArrayList<>();
    List<CpuAdamPoint> alone = data.cpuAdam().stream().filter(CpuAdamPoint::alone).toList();
    for (CpuAdamPoint c : alone) {
      List<CpuAdamPoint> others = alone.stream().filter(o -> o != c).toList();
      if (others.size() < 2) {
        continue;
      }
      CpuAdamScaling a = OneGpuFit.amdahl(others);
      cpu.add(
          new CpuRow(
              c.threads(),
              c.secondsPerParam(),
              1 / a.rate(c.threads()),
              c.evidence().file() + ":" + c.evidence().line()));
    }
    List<Fitted> fitted = new ArrayList<>(all.fitted());
    LaunchPeers peers = LaunchPeers.fit(data.phaseRuns());
    if (peers != null) {
      fitted.add(
          new Fitted(
              LaunchPeers.SHARE,
              peers.share(),
              "x per other rank",
              String.format(
                  java.util.Locale.ROOT,
                  "forward+backward of FSDP2 over NCCL at world %s over world 1 of the same shape"
                      + " on the same host, %d runs (%s)",
                  String.join(
                      " and ",
                      peers.points().stream()
                          .map(p -> String.valueOf(p.world()))
                          .distinct()
                          .sorted()
                          .toList()),
                  peers.points().size(),
                  String.join(", ", peers.files()))));
    }
    return new Report(data.files(), data.malformed(), fitted, rows, cpu, peers);
  }

  private static Source source(String what) {
    return new Source("FIT", "fitted by topolens validate-model to " + what, "");
  }

  /** The run as {@code predict} sees it: FSDP on one GPU of an instance with that GPU. */
  Prediction predict(TrainingRun r, PerfConstants constants) throws InputProblem {
    GpuSpec g = OneGpuFit.gpu(catalog, r);
    InstanceSpec inst =
        catalog.instances().stream()
            .filter(i -> i.gpu().equals(g.id()))
            .findFirst()
            .orElseThrow(
                () -> new InputProblem("the catalog has no instance type with a " + g.name()));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", r.tag());
    m.put("params", r.params());
    m.put("layers", r.layers());
    m.put("hidden", r.hidden());
    m.put("seq", r.seq());
    m.put("microBatch", r.microBatch());
    m.put("gradAccum", 1);
    m.put("steps", 1);
    m.put("strategy", "fsdp");
    m.put("precision", "bf16");
    m.put("reduceDtype", "fp32");
    m.put("checkpointing", r.checkpointing());
    m.put("offload", r.offload() ? "cpu" : "none");
    m.put("cpuThreads", r.threads());
    m.put("instance", inst.type());
    m.put("nodes", 1);
    m.put("layout", "1x1");
    String where = r.evidence().file() + ":" + r.evidence().line();
    Scenario s =
        RunConfig.fromMap(m, where).toScenario(catalog, ModelPresets.bundled(), where).scenario();
    return new StepModel(catalog, constants, Calibration.none()).predict(s);
  }

  /** The term that took most of the predicted step. */
  private static String pace(Prediction p) {
    Term max =
        p.terms().stream().max((a, b) -> Double.compare(a.seconds(), b.seconds())).orElseThrow();
    return max.kind() == Term.Kind.COMPUTE && max.detail().contains("host-bound")
        ? "launching the layers (host)"
        : max.label();
  }
}
