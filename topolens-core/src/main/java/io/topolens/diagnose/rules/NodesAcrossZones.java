package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.NodeFacts;
import java.util.List;
import java.util.Map;

/**
 * {@code nodes-across-zones}: the job's nodes carry more than one {@code
 * topology.kubernetes.io/zone}. EFA's OS-bypass traffic stays within one subnet, and a subnet lies
 * in one zone, so ranks in different zones cannot reach each other over EFA; over TCP they pay
 * cross-zone latency. Judged only on what {@code diagnose --job} read from the cluster.
 */
public final class NodesAcrossZones implements ClusterRule {
  static final String EFA_SUBNET =
      "AWS ParallelCluster, Elastic Fabric Adapter: OS-bypass communication with other instances"
          + " in the same subnet (https://docs.aws.amazon.com/parallelcluster/latest/ug/efa-v3.html)";

  @Override
  public String id() {
    return "nodes-across-zones";
  }

  @Override
  public List<Finding> check(Observed o) {
    Map<String, List<NodeFacts>> zones = ClusterRule.byLabel(o.cluster().nodes(), NodeFacts::zone);
    if (zones.size() < 2) {
      return List.of();
    }
    boolean efaAsked = o.cluster().pods().stream().anyMatch(p -> p.efa() > 0);
    return List.of(
        new Finding(
            id(),
            efaAsked ? Severity.ERROR : Severity.WARN,
            "The job's nodes are in "
                + zones.size()
                + " zones: "
                + String.join(", ", ClusterRule.counts(zones, " in ")),
            "EFA carries traffic only between instances of one subnet ("
                + EFA_SUBNET
                + "), and a subnet lies in one zone: ranks in different zones cannot reach each"
                + " other over EFA, so NCCL fails to connect or falls back to TCP sockets, which"
                + " pay cross-zone latency and data-transfer charges."
                + (efaAsked
                    ? " The job's pods request EFA, so they rely on what cannot cross zones."
                    : ""),
            ClusterRule.firstOfEach(zones),
            "Keep every pod of the job in one zone: a node group in one subnet (eksctl"
                + " availabilityZones with one zone and efaEnabled), a nodeSelector on "
                + NodeFacts.ZONE_LABEL
                + ", or a pod affinity on the zone (topolens plan --same-zone or --zone ZONE);"
                + " a cluster placement group for the lowest latency."));
  }
}
