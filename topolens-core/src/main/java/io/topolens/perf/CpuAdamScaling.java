package io.topolens.perf;

/**
 * PyTorch's AdamW on the CPU in one process against its threads (OMP_NUM_THREADS), as Amdahl's law:
 * seconds per parameter = serial + parallel / threads. The two constants ({@code
 * cpuAdam.torch.serialSPerParam}, {@code cpuAdam.torch.parallelSPerParam}) are fitted to {@code
 * bench/cpu-adam.py} runs of one process (perf-model.json says which).
 */
public record CpuAdamScaling(double serialSPerParam, double parallelSPerParam) {

  public static CpuAdamScaling of(PerfConstants k) {
    return new CpuAdamScaling(
        k.value("cpuAdam.torch.serialSPerParam"), k.value("cpuAdam.torch.parallelSPerParam"));
  }

  /** Parameters per second one process updates with {@code threads} threads. */
  public double rate(int threads) {
    return 1 / (serialSPerParam + parallelSPerParam / Math.max(1, threads));
  }
}
