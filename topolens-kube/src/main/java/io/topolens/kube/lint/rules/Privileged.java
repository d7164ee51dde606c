package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Container;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;

/** A privileged container in a job or Trainer runtime (warn), with what it buys and costs. */
public final class Privileged implements LintRule {
  @Override
  public String id() {
    return "privileged";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.groups()) {
      for (Container c : g.pod().containers()) {
        if (c.privileged() == null || !Boolean.TRUE.equals(c.privileged().value())) {
          continue;
        }
        out.add(
            new Finding(
                id(),
                Severity.WARN,
                w.label() + " " + g.role() + ": container " + c.name() + " is privileged",
                "What it buys: every device of the node inside the container, all its GPUs and all its EFA NICs whatever was requested (the seeds' pods asked for 1 EFA each and NCCL 'found 4 nics'), and root over the node's kernel. What it costs: it bypasses the device plugins, so two privileged pods of one node use the same NICs and GPUs; anything in the container can take over the node; the Pod Security Standards (Baseline) forbid it. EFA does not need it: the EFA device plugin gives devices to unprivileged pods (EKS user guide).",
                Facts.lines(c.privileged().evidence()),
                "Remove privileged: true; request vpc.amazonaws.com/efa and nvidia.com/gpu, and add the IPC_LOCK capability if the image locks memory."));
      }
    }
    return out;
  }
}
