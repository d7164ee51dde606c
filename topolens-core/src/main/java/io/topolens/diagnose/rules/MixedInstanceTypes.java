package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.NodeFacts;
import java.util.List;
import java.util.Map;

/**
 * {@code mixed-instance-types}: the job's nodes are of more than one instance type. A data-parallel
 * step waits for its slowest rank, NCCL builds one ring over unlike nodes, and types differ in
 * GPUs, NVLink and EFA devices. Judged only on what {@code diagnose --job} read from the cluster.
 */
public final class MixedInstanceTypes implements ClusterRule {

  @Override
  public String id() {
    return "mixed-instance-types";
  }

  @Override
  public List<Finding> check(Observed o) {
    Map<String, List<NodeFacts>> types =
        ClusterRule.byLabel(o.cluster().nodes(), NodeFacts::instanceType);
    if (types.size() < 2) {
      return List.of();
    }
    return List.of(
        new Finding(
            id(),
            Severity.WARN,
            "The job runs on "
                + types.size()
                + " instance types: "
                + String.join(", ", ClusterRule.counts(types, " x ")),
            "Every step of data-parallel training waits for its slowest rank, and NCCL builds its"
                + " rings and trees over all nodes alike: the slower GPUs, fewer EFA devices or"
                + " missing NVSwitch of one type set the pace of the whole job, and topolens judges"
                + " the job's hardware by its most common type only.",
            ClusterRule.firstOfEach(types),
            "Pin the job to one instance type: a nodeSelector on "
                + NodeFacts.INSTANCE_TYPE_LABEL
                + " (topolens plan writes it), or a node group or Karpenter NodePool of one type."));
  }
}
