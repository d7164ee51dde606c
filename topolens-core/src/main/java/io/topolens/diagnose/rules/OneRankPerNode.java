package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Communicator;
import io.topolens.model.Job;
import io.topolens.model.Member;
import java.util.List;

/**
 * {@code one-rank-per-node}: NCCL sees every rank of a multi-rank communicator on its own node. On
 * Kubernetes this is what a pod per GPU looks like; without a node map the logs cannot tell whether
 * those pods shared hosts (and talked over the network), so this says so instead of guessing.
 */
public final class OneRankPerNode implements Rule {

  @Override
  public String id() {
    return "one-rank-per-node";
  }

  @Override
  public List<Finding> check(Job job) {
    if (job.hasNodeMap()) {
      return List.of();
    }
    for (Communicator c : job.communicators()) {
      if (c.nRanks() < 2 || c.nNodes() != c.nRanks()) {
        continue;
      }
      boolean allSingle = c.members().values().stream().allMatch(m -> m.localRanks() == 1);
      boolean distinctHosts = c.hostCount() == c.members().size();
      if (!allSingle || !distinctHosts) {
        continue;
      }
      Member any = c.members().values().iterator().next();
      return List.of(
          new Finding(
              id(),
              Severity.INFO,
              "Every rank is its own node (a pod per GPU?)",
              "In communicator "
                  + c.key()
                  + " NCCL counts "
                  + c.nNodes()
                  + " nodes for "
                  + c.nRanks()
                  + " ranks, one rank each (localRanks 1). If these are pods with one GPU each, pods that share a"
                  + " physical host still talk through the network, because NCCL tells nodes apart by hostname and"
                  + " every pod has its own. The logs alone cannot tell where the pods ran.",
              List.of(any.firstLine()),
              "Pass --node-map with the pod-to-node assignment (kubectl get pods -o"
                  + " custom-columns=POD:.metadata.name,NODE:.spec.nodeName --no-headers > nodes.txt) so topolens can"
                  + " check; prefer one pod per node holding all its GPUs."));
    }
    return List.of();
  }
}
