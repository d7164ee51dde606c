package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.PodTemplate;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Shared shape of the rules on a pod's host namespaces: a pod-level flag set to true in any group
 * (job or Trainer runtime), reported once per group with what it buys and what it costs (warn).
 */
abstract class HostAccess implements LintRule {
  private final String field;
  private final Function<PodTemplate, Located<Boolean>> flag;
  private final String buys;
  private final String costs;
  private final String fix;

  HostAccess(
      String field,
      Function<PodTemplate, Located<Boolean>> flag,
      String buys,
      String costs,
      String fix) {
    this.field = field;
    this.flag = flag;
    this.buys = buys;
    this.costs = costs;
    this.fix = fix;
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.groups()) {
      Located<Boolean> f = flag.apply(g.pod());
      if (f != null && Boolean.TRUE.equals(f.value())) {
        out.add(
            new Finding(
                id(),
                Severity.WARN,
                w.label() + " " + g.role() + ": " + field + ": true",
                "What it buys: "
                    + buys
                    + " What it costs: "
                    + costs
                    + " The Kubernetes Pod Security Standards (Baseline) forbid it, so namespaces that enforce them reject the pod.",
                Facts.lines(f.evidence()),
                fix));
      }
    }
    return out;
  }
}
