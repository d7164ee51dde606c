package io.topolens.perf;

import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.BenchLines.CopyPoint;
import io.topolens.perf.BenchLines.CpuAdamPoint;
import io.topolens.perf.BenchLines.TrainingRun;
import io.topolens.perf.ValidationReport.Fitted;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fits the compute and offload constants of perf-model.json to one-GPU measurements: {@code
 * compute.kernelShare} and {@code compute.launchPerLayerS} to the forward+backward times of the
 * runs without offload (grid search on squared log error), {@code optimizer.gpu.hbmShare} to their
 * optimizer times (least squares on relative error), the Amdahl pair {@code cpuAdam.torch.*} to the
 * CPU optimizer runs, {@code copy.pinnedShare} as the median pinned copy of 16 MiB or more over the
 * GPU's PCIe rate. Runs with offload are never fitted: they judge the model.
 *
 * @param values constant id to fitted value, for {@link PerfConstants#with}
 * @param fitted what each was fitted to
 */
public record OneGpuFit(Map<String, Double> values, List<Fitted> fitted) {

  /** Fits what {@code runs}, {@code cpu} and {@code copies} allow; the rest is left out. */
  public static OneGpuFit fit(
      List<TrainingRun> runs,
      List<CpuAdamPoint> cpu,
      List<CopyPoint> copies,
      HardwareCatalog catalog,
      double bytesPerParam,
      double kernelsPerTensor)
      throws InputProblem {
    Map<String, Double> v = new LinkedHashMap<>();
    List<Fitted> f = new ArrayList<>();
    List<TrainingRun> plain =
        runs.stream().filter(r -> !r.offload() && r.fwdBwdS() != null && r.world() == 1).toList();
    if (plain.size() >= 2) {
      List<double[]> pts = new ArrayList<>();
      for (TrainingRun r : plain) {
        GpuSpec g = gpu(catalog, r);
        double flops =
            ComputeTime.flops(
                r.params(),
                r.layers(),
                r.hidden(),
                r.seq(),
                (long) r.microBatch() * r.seq(),
                r.checkpointing());
        pts.add(
            new double[] {
              flops, g.bf16Tflops(), r.layers(), r.checkpointing() ? 1 : 0, r.fwdBwdS()
            });
      }
      double bestErr = Double.MAX_VALUE;
      double bestShare = 0;
      double bestLaunch = 0;
      for (int i = 5; i <= 100; i++) {
        double share = i / 100.0;
        for (int j = 1; j <= 200; j++) {
          double launch = j * 1e-4;
          ComputeTime ct = new ComputeTime(share, launch, bytesPerParam, 1);
          double err = 0;
          for (double[] p : pts) {
            double t = ct.forwardBackward(p[0], p[1], (int) p[2], p[3] > 0);
            err += Math.pow(Math.log(t / p[4]), 2);
          }
          if (err < bestErr) {
            bestErr = err;
            bestShare = share;
            bestLaunch = launch;
          }
        }
      }
      v.put("compute.kernelShare", bestShare);
      v.put("compute.launchPerLayerS", bestLaunch);
      String from = "forward+backward of " + tags(plain);
      f.add(new Fitted("compute.kernelShare", bestShare, "x of peak", from));
      f.add(new Fitted("compute.launchPerLayerS", bestLaunch, "s", from));
      double sx = 0;
      double sxx = 0;
      for (TrainingRun r : plain) {
        double x = r.params() * bytesPerParam / (gpu(catalog, r).memoryTBs() * 1e12) / r.optS();
        sx += x;
        sxx += x * x;
      }
      double share = sxx / sx;
      v.put("optimizer.gpu.hbmShare", share);
      f.add(new Fitted("optimizer.gpu.hbmShare", share, "x", "optimizer step of " + tags(plain)));
    }
    List<CpuAdamPoint> over = cpu.stream().filter(c -> c.host().oversubscribed()).toList();
    cpu = cpu.stream().filter(CpuAdamPoint::alone).toList();
    CpuAdamScaling fittedAmdahl = null;
    if (cpu.size() >= 2) {
      CpuAdamScaling a = amdahl(cpu);
      fittedAmdahl = a;
      v.put("cpuAdam.torch.serialSPerParam", a.serialSPerParam());
      v.put("cpuAdam.torch.parallelSPerParam", a.parallelSPerParam());
      String from =
          "CPU AdamW of one process with "
              + String.join(
                  ", ", cpu.stream().map(c -> String.valueOf(c.threads())).distinct().toList())
              + " threads ("
              + cpu.get(0).evidence().file()
              + ")";
      f.add(new Fitted("cpuAdam.torch.serialSPerParam", a.serialSPerParam(), "s/parameter", from));
      f.add(
          new Fitted(
              "cpuAdam.torch.parallelSPerParam", a.parallelSPerParam(), "s/parameter", from));
    }
    if (!over.isEmpty() && fittedAmdahl != null) {
      double q = oversubscription(over, fittedAmdahl, kernelsPerTensor);
      v.put("cpuAdam.oversubscription.regionS", q);
      f.add(
          new Fitted(
              "cpuAdam.oversubscription.regionS",
              q,
              "s per parallel region",
              String.format(
                  Locale.ROOT,
                  "%d processes of %d threads on %d vCPUs, step beyond each process's share of"
                      + " the vCPUs (%s)",
                  over.get(0).procs(),
                  over.get(0).threads(),
                  over.get(0).cpus(),
                  String.join(
                      ", ", over.stream().map(c -> c.evidence().file()).distinct().toList()))));
    }
    List<Double> pinned = new ArrayList<>();
    for (CopyPoint c : copies) {
      if (c.pinned() && c.mib() >= 16) {
        pinned.add(c.h2dGBps());
        pinned.add(c.d2hGBps());
      }
    }
    if (!pinned.isEmpty() && !runs.isEmpty()) {
      GpuSpec g = gpu(catalog, runs.get(0));
      double median = BenchLines.median(pinned.stream().mapToDouble(Double::doubleValue).toArray());
      double share = median / g.pcie().gbps();
      v.put("copy.pinnedShare", share);
      f.add(
          new Fitted(
              "copy.pinnedShare",
              share,
              "x",
              String.format(
                  Locale.ROOT,
                  "median of %d pinned copies of 16 MiB or more, %.2f GB/s, over PCIe Gen%d"
                      + " x16's %.0f GB/s (%s)",
                  pinned.size(),
                  median,
                  g.pcie().generation(),
                  g.pcie().gbps(),
                  copies.get(0).evidence().file())));
    }
    return new OneGpuFit(v, f);
  }

  /**
   * The time an oversubscribed host adds per parallel region and unit of {@link
   * HostThreads#barrierWeight()}: the median over the processes of (measured step - the Amdahl time
   * with the process's share of the vCPUs) / (regions x weight).
   */
  static double oversubscription(
      List<CpuAdamPoint> over, CpuAdamScaling a, double kernelsPerTensor) {
    double[] q = new double[over.size()];
    for (int i = 0; i < q.length; i++) {
      CpuAdamPoint c = over.get(i);
      HostThreads h = c.host();
      double alone =
          c.params() * (a.serialSPerParam() + a.parallelSPerParam() / h.effectiveThreads());
      double regions = kernelsPerTensor * (7.0 * c.layers() + 2);
      q[i] = Math.max(0, c.stepS() - alone) / (regions * h.barrierWeight());
    }
    return BenchLines.median(q);
  }

  /** seconds per parameter = a + b / threads, least squares on relative error. */
  static CpuAdamScaling amdahl(List<CpuAdamPoint> pts) {
    double tmin = pts.stream().mapToDouble(CpuAdamPoint::secondsPerParam).min().orElseThrow();
    double best = Double.MAX_VALUE;
    CpuAdamScaling out = null;
    for (int i = 0; i <= 1000; i++) {
      double a = tmin * i / 1000.0;
      double num = 0;
      double den = 0;
      for (CpuAdamPoint p : pts) {
        double t = p.secondsPerParam();
        double x = 1.0 / p.threads() / t;
        num += x * (1 - a / t);
        den += x * x;
      }
      double b = num / den;
      if (b < 0) {
        continue;
      }
      double err = 0;
      for (CpuAdamPoint p : pts) {
        err += Math.pow((a + b / p.threads()) / p.secondsPerParam() - 1, 2);
      }
      if (err < best) {
        best = err;
        out = new CpuAdamScaling(a, b);
      }
    }
    return out;
  }

  static GpuSpec gpu(HardwareCatalog catalog, TrainingRun r) throws InputProblem {
    GpuSpec g =
        catalog
            .gpuByName(r.gpu())
            .orElseThrow(
                () ->
                    new InputProblem(
                        r.evidence().file()
                            + ":"
                            + r.evidence().line()
                            + ": unknown GPU \""
                            + r.gpu()
                            + "\" (add it with --catalog FILE)"));
    if (g.bf16Tflops() == null || g.memoryTBs() == null || g.pcie() == null) {
      throw new InputProblem(
          r.evidence().file()
              + ":"
              + r.evidence().line()
              + ": the catalog lacks the BF16 peak, memory bandwidth or PCIe rate of "
              + g.name());
    }
    return g;
  }

  private static String tags(List<TrainingRun> runs) {
    return String.join(", ", runs.stream().map(TrainingRun::tag).toList());
  }
}
