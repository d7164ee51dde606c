package io.topolens.perf;

/**
 * The CPU optimizer's threads on one host: {@code processes} training processes of {@code
 * threadsPerProcess} threads each (OMP_NUM_THREADS) on {@code vcpus} logical CPUs. Threads beyond
 * the vCPUs do not add cores: the kernel time-slices them, so each process gets at most its share
 * of the host ({@link #effectiveThreads()}), and its OpenMP barriers wait for descheduled threads
 * ({@link #oversubscription()} above 1).
 */
public record HostThreads(int processes, int threadsPerProcess, int vcpus) {

  public HostThreads {
    processes = Math.max(1, processes);
    threadsPerProcess = Math.max(1, threadsPerProcess);
  }

  /**
   * The threads torchrun leaves each process when none are declared: OMP_NUM_THREADS=1 when it
   * starts more than one process per pod (torch/distributed/run.py), else the runtime's default,
   * one per logical CPU the pod sees (all of the host's without CPU limits).
   */
  public static int torchrunDefault(int processesPerPod, int vcpus) {
    return processesPerPod > 1 ? 1 : Math.max(1, vcpus);
  }

  /** Threads per vCPU over the host; 0 when the vCPUs are unknown (taken as not oversubscribed). */
  public double oversubscription() {
    return vcpus > 0 ? (double) processes * threadsPerProcess / vcpus : 0;
  }

  public boolean oversubscribed() {
    return oversubscription() > 1;
  }

  /** The threads' worth of CPU a process gets: its threads, at most its share of the vCPUs. */
  public double effectiveThreads() {
    return vcpus > 0 ? Math.min(threadsPerProcess, (double) vcpus / processes) : threadsPerProcess;
  }

  /**
   * What time-slicing adds per OpenMP parallel region (in units of the fitted constant): o^2 - 1
   * for o threads per vCPU, 0 when each thread has its vCPU.
   */
  public double barrierWeight() {
    double o = oversubscription();
    return o > 1 ? o * o - 1 : 0;
  }
}
