package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * GPU pods that pin no instance type topolens can check: none at all (they may land on any GPU node
 * type), a placeholder, or a type the catalog does not know (info).
 */
public final class InstanceNotPinned implements LintRule {
  @Override
  public String id() {
    return "instance-not-pinned";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.rankGroups()) {
      if (g.pod().gpus().orElse(1L) == 0) {
        continue;
      }
      if (g.pod().instanceTypes().isEmpty()) {
        if (ctx.instance() != null && ctx.catalog().instance(ctx.instance()).isPresent()) {
          continue;
        }
        out.add(
            new Finding(
                id(),
                Severity.INFO,
                Facts.who(w, g) + ": no node selector on node.kubernetes.io/instance-type",
                "The pods may land on any node type with free GPUs, mixed in one job; and topolens cannot check EFA counts, NVLink or memory against an instance type.",
                Facts.lines(g.pod().evidence()),
                "Pin the type: nodeSelector: {node.kubernetes.io/instance-type: <type>}; or pass --instance TYPE to lint against one."));
        continue;
      }
      for (Located<String> t : g.pod().instanceTypes()) {
        if (t.value() != null && ctx.catalog().instance(t.value()).isEmpty()) {
          out.add(
              new Finding(
                  id(),
                  Severity.INFO,
                  Facts.who(w, g)
                      + ": instance type "
                      + t.value()
                      + " is not in topolens's hardware catalog",
                  "Rules that need the instance's GPUs, EFA count, NVLink or memory say nothing about it.",
                  Facts.lines(t.evidence()),
                  "Describe it in a catalog file and pass --catalog FILE (see docs/catalog.md)."));
        }
      }
    }
    return out;
  }
}
