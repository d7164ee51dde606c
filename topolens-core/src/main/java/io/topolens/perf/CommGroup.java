package io.topolens.perf;

import java.util.EnumSet;
import java.util.Set;

/**
 * The shape of one communicator as NCCL sees it: ranks, NCCL nodes (distinct host hashes: a pod is
 * a node), ranks per node, and the links inside and between nodes.
 *
 * @param intra the path between ranks of one node, or null when each node has one rank
 * @param inter the path between nodes, or null on one node
 * @param protocols the protocols NCCL may use here: LL128 needs NVLink inside nodes and GPUDirect
 *     RDMA between them (tuning.cc:514-535); networks without GPUDirect RDMA need Simple on AWS
 */
public record CommGroup(
    int ranks,
    int nodes,
    int ranksPerNode,
    Link intra,
    Link inter,
    GpuArch arch,
    Set<Protocol> protocols) {

  public CommGroup {
    protocols = protocols.isEmpty() ? EnumSet.of(Protocol.SIMPLE) : EnumSet.copyOf(protocols);
    if (ranks < 1 || nodes < 1 || ranksPerNode < 1 || nodes * ranksPerNode != ranks) {
      throw new IllegalArgumentException(
          "ranks " + ranks + " != nodes " + nodes + " x ranks per node " + ranksPerNode);
    }
    if (ranksPerNode > 1 && intra == null) {
      throw new IllegalArgumentException("several ranks per node need an intra-node path");
    }
    if (nodes > 1 && inter == null) {
      throw new IllegalArgumentException("several nodes need a network path");
    }
  }

  /** The link that bounds a ring: the slower of the intra and inter links that are used. */
  public Link bottleneck() {
    if (intra == null || ranksPerNode == 1) {
      return inter;
    }
    if (inter == null || nodes == 1) {
      return intra;
    }
    return inter.busBwGBps() < intra.busBwGBps() ? inter : intra;
  }
}
