package io.topolens.perf;

import java.util.List;
import java.util.Locale;

/**
 * The CPU optimizer step of one host under CPU offload, from its threads ({@link HostThreads}): the
 * processes run side by side, each updating its share of the parameters with at most its share of
 * the vCPUs, and each OpenMP parallel region of an oversubscribed host costs {@code
 * cpuAdam.oversubscription.regionS} x (o^2 - 1) more (threads waiting at the region's barrier for
 * descheduled ones; fitted to bench/cpu-adam.py runs with more threads than vCPUs).
 *
 * <p>PyTorch's AdamW on the CPU (FSDP's CPUOffloadPolicy) runs one kernel, so one parallel region,
 * per operation and tensor ({@code cpuAdam.torch.kernelsPerTensor}); its time per parameter is the
 * Amdahl fit {@link CpuAdamScaling}. DeepSpeedCPUAdam runs one fused pass with one region per tile
 * of {@code cpuAdam.deepspeed.tileElements}; its host rate is the sourced {@code cpuAdam.deepspeed}
 * figure, capped by the threads it has at {@code cpuAdam.fused.perThreadRate} each.
 *
 * @param seconds the step on the host
 * @param hostRate parameters per second over the host, barrier waits included
 * @param detail how it was priced, for the breakdown
 * @param sources the constants' source keys
 */
public record CpuOptimizerTime(
    double seconds, double hostRate, String detail, List<String> sources) {

  /**
   * Parallel regions of one AdamW step per process for a Llama-shaped model: 7 matrices per layer
   * (q, k, v, o, gate, up, down) and the embeddings and output; norms are below OpenMP's grain
   * (at::internal::GRAIN_SIZE, 32768 elements) and run without one.
   */
  static double torchRegions(PerfConstants k, int layers) {
    return k.value("cpuAdam.torch.kernelsPerTensor") * (7.0 * layers + 2);
  }

  /** PyTorch's AdamW on the CPU in each training process. */
  public static CpuOptimizerTime torch(
      PerfConstants k, HostThreads h, double paramsPerProcess, int layers) {
    CpuAdamScaling a = CpuAdamScaling.of(k);
    double t = h.effectiveThreads();
    double compute = paramsPerProcess * (a.serialSPerParam() + a.parallelSPerParam() / t);
    double regions = torchRegions(k, layers);
    double waits = regions * k.value("cpuAdam.oversubscription.regionS") * h.barrierWeight();
    double seconds = compute + waits;
    String detail =
        String.format(
                Locale.ROOT,
                "PyTorch AdamW on the CPU: %d process(es) of %d thread(s) on %d vCPUs, %s"
                    + " threads' worth each: %s s",
                h.processes(),
                h.threadsPerProcess(),
                h.vcpus(),
                StepModel.num(t),
                StepModel.num3(compute))
            + waitText(h, regions, waits);
    return new CpuOptimizerTime(
        seconds,
        paramsPerProcess * h.processes() / seconds,
        detail,
        List.of("H100-1GPU", "CPUADAM-H200X4", "TORCH-ADAMW"));
  }

  /**
   * DeepSpeed ZeRO's CPU step: DeepSpeedCPUAdam's fused pass (one parallel region per tile), then
   * the step's own passes over host memory on the same threads (the gradient scaled in place, and
   * with parameter offload the fp32 partition copied into the 16-bit one), each at the fused pass's
   * per-thread streaming rate. The sourced per-host figure bounds it from above.
   */
  public static CpuOptimizerTime deepSpeed(
      PerfConstants k, HostThreads h, double paramsPerProcess, boolean paramsOffloaded) {
    double host = k.value("cpuAdam.deepspeed");
    double perThread = k.value("cpuAdam.fused.perThreadRate");
    double passBytes = k.value("cpuAdam.deepspeed.stepPassBytesPerParam", paramsOffloaded ? 1 : 0);
    double streamGBps = perThread * k.value("cpuAdam.fused.bytesPerParam") / 1e9;
    double secondsPerParamThread = 1 / perThread + passBytes / (streamGBps * 1e9);
    double byThreads = h.processes() * h.effectiveThreads() / secondsPerParamThread;
    double rate = Math.min(host, byThreads);
    double compute = paramsPerProcess * h.processes() / rate;
    double regions = Math.ceil(paramsPerProcess / k.value("cpuAdam.deepspeed.tileElements"));
    double waits = regions * k.value("cpuAdam.oversubscription.regionS") * h.barrierWeight();
    double seconds = compute + waits;
    String detail =
        String.format(
                Locale.ROOT,
                "DeepSpeedCPUAdam: %d process(es) of %d thread(s) on %d vCPUs, %s/s per host (%s)",
                h.processes(),
                h.threadsPerProcess(),
                h.vcpus(),
                StepModel.sci(rate),
                byThreads < host
                    ? String.format(
                        Locale.ROOT,
                        "bounded by its threads: %s x %s/s per thread for the fused Adam pass and"
                            + " %s more bytes per parameter of the step's own passes at %s GB/s"
                            + " per thread",
                        StepModel.num(h.processes() * h.effectiveThreads()),
                        StepModel.sci(perThread),
                        StepModel.num(passBytes),
                        StepModel.num(streamGBps))
                    : "the per-host figure; its threads would allow " + StepModel.sci(byThreads))
            + waitText(h, regions, waits);
    return new CpuOptimizerTime(
        seconds,
        paramsPerProcess * h.processes() / seconds,
        detail,
        List.of("DS-6834", "SLIME-1139", "FUSED-ADAM-H100", "DS-SIMD", "DS-STAGE3-STEP"));
  }

  private static String waitText(HostThreads h, double regions, double waits) {
    if (!h.oversubscribed()) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "; %s threads per vCPU: %.0f parallel regions wait %s s at their barriers",
        StepModel.num(h.oversubscription()),
        regions,
        StepModel.num3(waits));
  }
}
