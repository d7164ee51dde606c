package io.topolens.perf;

/**
 * Where the job runs: instance type, hosts, and how GPUs are split into pods (NCCL treats each pod
 * as a node because each has its own hostname).
 *
 * @param nodes hosts
 * @param podsPerNode pods (or processes groups with distinct hostnames) per host
 * @param gpusPerPod GPUs in each pod
 * @param network the path between pods: efa, ib or tcp (eni)
 * @param intra the path between GPUs of one pod, or null for the default (NVLink when the GPU has
 *     it, else SHM: NCCL does not use P2P across CPU host bridges by default)
 * @param nicGbps the host's network rate in Gbit/s, or null for the catalog's
 */
public record Cluster(
    String instance,
    int nodes,
    int podsPerNode,
    int gpusPerPod,
    PathKind network,
    PathKind intra,
    Double nicGbps) {

  public Cluster {
    if (nodes < 1 || podsPerNode < 1 || gpusPerPod < 1) {
      throw new IllegalArgumentException("nodes, pods per node and GPUs per pod must be >= 1");
    }
    if (network != null && !network.network()) {
      throw new IllegalArgumentException(
          "--network must be efa, ib or eni (tcp), not " + network.id());
    }
  }

  /** All GPUs of the job. */
  public int ranks() {
    return nodes * podsPerNode * gpusPerPod;
  }

  /** The nodes NCCL sees: one per pod. */
  public int ncclNodes() {
    return nodes * podsPerNode;
  }

  /** {@code PODSxGPUS}, as --layouts takes it. */
  public String layout() {
    return podsPerNode + "x" + gpusPerPod;
  }

  /** The same cluster with another layout. */
  public Cluster withLayout(int pods, int gpus) {
    return new Cluster(instance, nodes, pods, gpus, network, intra, nicGbps);
  }

  /** The same cluster with another network. */
  public Cluster withNetwork(PathKind net) {
    return new Cluster(instance, nodes, podsPerNode, gpusPerPod, net, intra, nicGbps);
  }
}
