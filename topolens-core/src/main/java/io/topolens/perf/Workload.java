package io.topolens.perf;

/**
 * The training job: model, batch, strategy and the model's tunable assumptions.
 *
 * @param seq tokens per sample
 * @param microBatch samples per GPU per micro-step
 * @param gradAccum micro-steps per optimizer step
 * @param steps optimizer steps of the job
 * @param reduce precision of gradient reduction (FSDP's reduce_dtype; usually the parameter's)
 * @param checkpointing activation checkpointing (full recomputation: one more forward pass)
 * @param mfu model FLOPs utilisation, or null for the default in perf-model.json
 * @param overheadS framework time per micro-step that is neither FLOPs nor transfers (hooks,
 *     waits), given by the user from a measurement; communication overlaps it. 0 by default.
 * @param startupS time before the first step (load, compile), added to the job time
 * @param tflops peak TFLOPS per GPU, or null for the catalog's dense BF16 number
 * @param cpuAdamRate parameters per second the CPU optimizer updates per host, or null for the
 *     default of the framework
 * @param cpuThreads threads of each process's CPU optimizer (OMP_NUM_THREADS), or null for
 *     torchrun's default of 1
 */
public record Workload(
    ModelSpec model,
    int seq,
    int microBatch,
    int gradAccum,
    long steps,
    Strategy strategy,
    Precision precision,
    Precision reduce,
    boolean checkpointing,
    Offload offload,
    Double mfu,
    double overheadS,
    double startupS,
    Double tflops,
    Double cpuAdamRate,
    Integer cpuThreads) {

  public Workload {
    if (seq < 1 || microBatch < 1 || gradAccum < 1 || steps < 1) {
      throw new IllegalArgumentException("seq, micro-batch, accumulation and steps must be >= 1");
    }
    if (mfu != null && !(mfu > 0 && mfu <= 1)) {
      throw new IllegalArgumentException("MFU must be in (0, 1], not " + mfu);
    }
    if (overheadS < 0 || startupS < 0) {
      throw new IllegalArgumentException("overhead and startup must not be negative");
    }
    if (tflops != null && !(tflops > 0)) {
      throw new IllegalArgumentException("TFLOPS must be positive");
    }
    if (cpuAdamRate != null && !(cpuAdamRate > 0)) {
      throw new IllegalArgumentException("CPU Adam rate must be positive");
    }
    if (cpuThreads != null && cpuThreads < 1) {
      throw new IllegalArgumentException("CPU threads must be >= 1");
    }
    if (reduce == null) {
      reduce = precision;
    }
  }

  /** The same job with another offload setting. */
  public Workload withOffload(Offload o) {
    return new Workload(
        model,
        seq,
        microBatch,
        gradAccum,
        steps,
        strategy,
        precision,
        reduce,
        checkpointing,
        o,
        mfu,
        overheadS,
        startupS,
        tflops,
        cpuAdamRate,
        cpuThreads);
  }

  /** The same job with another MFU. */
  public Workload withMfu(double m) {
    return new Workload(
        model,
        seq,
        microBatch,
        gradAccum,
        steps,
        strategy,
        precision,
        reduce,
        checkpointing,
        offload,
        m,
        overheadS,
        startupS,
        tflops,
        cpuAdamRate,
        cpuThreads);
  }

  /** The same job with another CPU optimizer rate. */
  public Workload withCpuAdamRate(double rate) {
    return new Workload(
        model,
        seq,
        microBatch,
        gradAccum,
        steps,
        strategy,
        precision,
        reduce,
        checkpointing,
        offload,
        mfu,
        overheadS,
        startupS,
        tflops,
        rate,
        cpuThreads);
  }

  /** The same job with another per-micro-step overhead. */
  public Workload withOverhead(double seconds) {
    return new Workload(
        model,
        seq,
        microBatch,
        gradAccum,
        steps,
        strategy,
        precision,
        reduce,
        checkpointing,
        offload,
        mfu,
        seconds,
        startupS,
        tflops,
        cpuAdamRate,
        cpuThreads);
  }

  /** The same job with another sequence length. */
  public Workload withSeq(int length) {
    return new Workload(
        model,
        length,
        microBatch,
        gradAccum,
        steps,
        strategy,
        precision,
        reduce,
        checkpointing,
        offload,
        mfu,
        overheadS,
        startupS,
        tflops,
        cpuAdamRate,
        cpuThreads);
  }

  /** The same job with another micro-batch and activation checkpointing. */
  public Workload withBatch(int micro, boolean checkpoint) {
    return new Workload(
        model,
        seq,
        micro,
        gradAccum,
        steps,
        strategy,
        precision,
        reduce,
        checkpoint,
        offload,
        mfu,
        overheadS,
        startupS,
        tflops,
        cpuAdamRate,
        cpuThreads);
  }
}
