package io.topolens.model;

/**
 * One rank's membership in a communicator.
 *
 * @param rank the rank in the communicator
 * @param id the GPU context that holds it
 * @param nNodes nodes as NCCL counted them for this communicator, or -1 when not printed
 * @param localRanks ranks NCCL placed on this rank's node, or -1
 * @param initStarted whether an Init START line was seen
 * @param initCompleted whether an Init COMPLETE line was seen
 * @param bootstrapSeconds total bootstrap time NCCL printed, or NaN
 * @param bootstrapRecvSeconds time spent waiting for peers during bootstrap, or NaN
 * @param initSeconds total init time NCCL printed, or NaN
 * @param network the network NCCL assigned ({@code Using network X}), or null
 * @param firstLine the first line that names this membership
 * @param timingLine the bootstrap or init timing line, or null
 */
public record Member(
    int rank,
    RankId id,
    int nNodes,
    int localRanks,
    boolean initStarted,
    boolean initCompleted,
    double bootstrapSeconds,
    double bootstrapRecvSeconds,
    double initSeconds,
    String network,
    Evidence firstLine,
    Evidence timingLine) {}
