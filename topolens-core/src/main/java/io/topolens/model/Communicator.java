package io.topolens.model;

import java.util.List;
import java.util.Map;

/**
 * A NCCL communicator, merged across every rank that printed lines about it.
 *
 * @param key stable identity: the commId NCCL printed, or a synthesized key for versions that print
 *     none (see docs/json.md)
 * @param commId NCCL's commId (hex), or null before NCCL 2.19-era logs
 * @param nRanks ranks NCCL said the communicator has
 * @param parentKey key of the communicator it was split from, or null
 * @param members the ranks whose lines were seen, by communicator rank
 * @param rings ring order per channel ({@code Channel 00/24 : 0 1 2 3})
 * @param trees tree neighbours per rank and channel
 * @param edges connections, folded over channels
 * @param pxn whether NCCL said it uses PXN (null when not printed)
 * @param gdr whether NCCL said it uses GPUDirect RDMA on its NET connections (null when not
 *     printed)
 */
public record Communicator(
    String key,
    String commId,
    int nRanks,
    String parentKey,
    Map<Integer, Member> members,
    Map<Integer, List<Integer>> rings,
    List<Tree> trees,
    List<Edge> edges,
    Boolean pxn,
    Boolean gdr) {

  /** nNodes as NCCL printed it (the largest any member printed), or -1. */
  public int nNodes() {
    return members.values().stream().mapToInt(Member::nNodes).max().orElse(-1);
  }

  /** Distinct hostnames among the members seen. */
  public long hostCount() {
    return members.values().stream().map(m -> m.id().host()).distinct().count();
  }

  /** Channels NCCL built for collectives, as far as the ring lines tell. */
  public int channelCount() {
    return rings.size();
  }
}
