package io.topolens.model;

import java.util.List;

/**
 * What the Kubernetes API said about a job beside its logs ({@code diagnose --job}, or a folder it
 * saved): the nodes its pods ran on and what each pod asked of them.
 *
 * @param nodes the nodes, as their labels and allocatable resources describe them
 * @param pods each pod with its node and the EFA devices it requested
 */
public record Cluster(List<NodeFacts> nodes, List<PodRequest> pods) {

  /** Nothing known of a cluster: logs read from files. */
  public static final Cluster NONE = new Cluster(List.of(), List.of());

  /**
   * One pod's request.
   *
   * @param node the node it ran on, or null when it was never scheduled
   * @param efa {@code vpc.amazonaws.com/efa} devices its containers asked for, 0 for none
   * @param containers the names of its containers ({@code pytorch}, {@code istio-proxy})
   */
  public record PodRequest(String pod, String node, int efa, List<String> containers) {
    public PodRequest {
      containers = List.copyOf(containers);
    }

    /** A pod whose containers are not known. */
    public PodRequest(String pod, String node, int efa) {
      this(pod, node, efa, List.of());
    }
  }

  public Cluster {
    nodes = List.copyOf(nodes);
    pods = List.copyOf(pods);
  }

  /** The node of this name, or null. */
  public NodeFacts node(String name) {
    return nodes.stream().filter(n -> n.name().equals(name)).findFirst().orElse(null);
  }
}
