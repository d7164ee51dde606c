package io.topolens.perf;

/**
 * A collective the job runs and what it costs per optimizer step.
 *
 * @param purpose e.g. {@code parameters before forward}
 * @param callsPerStep calls per optimizer step (one per layer and micro-step for ZeRO-3/FSDP)
 * @param perCall the cost of one call
 * @param seconds time of all calls in one step, overlapped or not
 * @param exposedSeconds the part of it the step waits for
 * @param busGB bytes each GPU moves per step in nccl-tests' bus terms (bytes x bus factor), GB
 */
public record CollectiveUse(
    String purpose,
    CollectiveOp op,
    long callsPerStep,
    CollectiveCost perCall,
    double seconds,
    double exposedSeconds,
    double busGB) {}
