package io.topolens.diagnose.rules;

import io.topolens.catalog.InstanceSpec;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.model.NodeFacts;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code efa-not-allocatable}: a node of the job is of an instance type the catalog gives EFA
 * interfaces, yet it allocates fewer {@code vpc.amazonaws.com/efa} devices than that (none when the
 * EFA device plugin does not run there). Judged only on what {@code diagnose --job} read from the
 * cluster.
 */
public final class EfaNotAllocatable implements ClusterRule {

  @Override
  public String id() {
    return "efa-not-allocatable";
  }

  @Override
  public List<Finding> check(Observed o) {
    if (o.catalog() == null) {
      return List.of();
    }
    EfaShortfall shortfall = new EfaShortfall();
    Set<String> types = new LinkedHashSet<>();
    Set<String> sources = new LinkedHashSet<>();
    for (NodeFacts n : o.cluster().nodes()) {
      InstanceSpec spec = o.catalog().instance(n.instanceType()).orElse(null);
      int have = n.efa() == null ? 0 : n.efa();
      if (spec == null || spec.efa() == 0 || have >= spec.efa()) {
        continue;
      }
      shortfall.add(have == 0, n.evidence());
      types.add(spec.type() + " has " + spec.efa());
      sources.add(spec.sources().get(0));
    }
    if (shortfall.isEmpty()) {
      return List.of();
    }
    String explanation =
        "The catalog says "
            + String.join(", ", types)
            + " EFA interface(s) ("
            + String.join(", ", o.catalog().sources(sources).stream().map(s -> s.cite()).toList())
            + "), but the node(s) cited advertise fewer as allocatable vpc.amazonaws.com/efa."
            + " Kubernetes hands EFA devices to pods only through the EFA device plugin"
            + " (aws-efa-k8s-device-plugin); a node without it allocates none, so no pod there can"
            + " request EFA, aws-ofi-nccl finds no device and NCCL falls back to TCP sockets. Fewer"
            + " devices than the instance has means interfaces were not attached at launch (a"
            + " launch template or node group without EFA on every network card), which cuts the"
            + " bandwidth NCCL can use."
            + EfaShortfall.seen(o.job());
    String fix =
        "Run the EFA device plugin on these nodes (kubectl get ds -A | grep efa; the"
            + " aws-efa-k8s-device-plugin Helm chart, with tolerations for GPU taints); create the"
            + " node group with EFA enabled on every network card (eksctl efaEnabled: true, or a"
            + " launch template listing each interface with InterfaceType efa); then check"
            + " kubectl get node NODE -o jsonpath='{.status.allocatable}' shows"
            + " vpc.amazonaws.com/efa as the catalog's count.";
    return List.of(
        new Finding(
            id(),
            shortfall.severity(o.job()),
            shortfall.title(
                "node",
                "of an instance type with EFA",
                "allocates",
                "the catalog gives its instance type"),
            explanation,
            shortfall.evidence(),
            fix));
  }
}
