package io.topolens.bench;

import io.topolens.model.Evidence;

/**
 * The launch micro-benchmark of {@code topolens probe} (probe.py's {@code launch_costs}): host
 * microseconds per op of small GPU work issued from Python, each op the median over ranks of each
 * rank's median round (docs/model.md, "Compute").
 *
 * @param kernelUs one CUDA kernel launch (an in-place add on a one-element tensor)
 * @param ncclUs one NCCL all_reduce of one element
 * @param layerUs forward and backward of a small MLP block under autograd: the op the step model
 *     scales its per-layer launch time by (it moved with FSDP2's launch time where the other two
 *     did not: bench/results/h100-launch)
 * @param ranks the ranks measured (the median is over them)
 * @param rounds rounds per op
 * @param ops ops per round
 * @param evidence the line it was read from
 */
public record ProbeLaunch(
    double kernelUs,
    double ncclUs,
    double layerUs,
    int ranks,
    int rounds,
    int ops,
    Evidence evidence) {}
