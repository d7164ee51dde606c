package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.model.Cluster;
import io.topolens.model.Evidence;
import io.topolens.model.NodeFacts;
import java.util.List;
import java.util.Objects;

/**
 * {@code efa-not-requested}: pods of a job that spans nodes ran on nodes that allocate EFA devices
 * but asked for none of them, or for fewer than the node has: a container sees only the EFA devices
 * its pod requested. Judged only on what {@code diagnose --job} read from the cluster.
 */
public final class EfaNotRequested implements ClusterRule {

  @Override
  public String id() {
    return "efa-not-requested";
  }

  @Override
  public List<Finding> check(Observed o) {
    Cluster c = o.cluster();
    long nodes =
        c.pods().stream().map(Cluster.PodRequest::node).filter(Objects::nonNull).distinct().count();
    if (nodes < 2) {
      // one node: NCCL needs no network between the job's ranks
      return List.of();
    }
    EfaShortfall shortfall = new EfaShortfall();
    NodeFacts example = null;
    for (Cluster.PodRequest p : c.pods()) {
      NodeFacts n = p.node() == null ? null : c.node(p.node());
      if (n == null || n.efa() == null || p.efa() >= n.efa()) {
        continue;
      }
      Evidence e =
          new Evidence(
              "pod " + p.pod(),
              0,
              "requests vpc.amazonaws.com/efa "
                  + p.efa()
                  + " on node "
                  + n.name()
                  + " ("
                  + (n.instanceType() == null ? "no instance-type label" : n.instanceType())
                  + ", "
                  + n.efa()
                  + " allocatable)");
      shortfall.add(p.efa() == 0, e);
      example = example == null ? n : example;
    }
    if (shortfall.isEmpty()) {
      return List.of();
    }
    String explanation =
        "A container sees only the EFA devices its pod requested (resources.limits"
            + " vpc.amazonaws.com/efa); the device plugin mounts no other. A pod that requests none"
            + " has no EFA device at all: aws-ofi-nccl finds no provider and NCCL falls back to TCP"
            + " sockets between nodes. A pod that requests fewer than the node has drives only those"
            + " NICs, a fraction of the node's network bandwidth."
            + EfaShortfall.seen(o.job());
    String fix =
        "Request every EFA device of the node in the training container, beside its GPUs:"
            + " resources: {limits: {vpc.amazonaws.com/efa: "
            + example.efa()
            + "}} for node "
            + example.name()
            + " (its allocatable count; topolens plan writes it), and hugepages-2Mi where the"
            + " image's libfabric needs it.";
    return List.of(
        new Finding(
            id(),
            shortfall.severity(o.job()),
            shortfall.title("pod", "on a node with EFA", "requests", "its node allocates"),
            explanation,
            shortfall.evidence(),
            fix));
  }
}
