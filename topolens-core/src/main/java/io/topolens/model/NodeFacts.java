package io.topolens.model;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Kubernetes node says about its hardware (its labels and allocatable resources), as {@code
 * diagnose --job} reads it.
 *
 * @param instanceType its {@code node.kubernetes.io/instance-type} label, or null
 * @param gpus allocatable {@code nvidia.com/gpu}, or null when it allocates none
 * @param efa allocatable {@code vpc.amazonaws.com/efa}, or null when it allocates none
 * @param zone its {@code topology.kubernetes.io/zone} label, or null
 */
public record NodeFacts(String name, String instanceType, Integer gpus, Integer efa, String zone) {
  public static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";
  public static final String ZONE_LABEL = "topology.kubernetes.io/zone";

  /** A node that could not be read (deleted since, or not visible): only its name. */
  public static NodeFacts unknown(String name) {
    return new NodeFacts(name, null, null, null, null);
  }

  /** What the node says, as evidence of a finding: {@code node ip-10-0-1-1: ...}. */
  public Evidence evidence() {
    return new Evidence(
        "node " + name,
        0,
        "instance-type "
            + (instanceType == null ? "not labelled" : instanceType)
            + ", allocatable nvidia.com/gpu "
            + (gpus == null ? "none" : gpus)
            + ", vpc.amazonaws.com/efa "
            + (efa == null ? "none" : efa)
            + (zone == null ? "" : ", zone " + zone));
  }

  /**
   * Nodes grouped by what they say: {@code 4 x p4d.24xlarge (8 GPU, 4 EFA allocatable)}, most
   * common first.
   */
  public static List<String> summary(List<NodeFacts> nodes) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (NodeFacts n : nodes) {
      String what =
          (n.instanceType() == null ? "no instance-type label" : n.instanceType())
              + " ("
              + (n.gpus() == null ? "no" : n.gpus())
              + " GPU, "
              + (n.efa() == null ? "no" : n.efa())
              + " EFA allocatable)";
      counts.merge(what, 1, Integer::sum);
    }
    return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
        .map(e -> e.getValue() + " x " + e.getKey())
        .toList();
  }
}
