package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintContext.Placement;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.Workload;
import io.topolens.kube.settings.KubeSettings;
import java.util.ArrayList;
import java.util.List;

/**
 * Pods that request EFA but no {@code hugepages-2Mi}: libfabric cannot use the node's huge pages
 * (warn).
 */
public final class HugepagesMissing implements LintRule {
  @Override
  public String id() {
    return "hugepages-missing";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.rankGroups()) {
      if (!Facts.requestsEfa(g) || Facts.names(g, Resources.HUGEPAGES_2MI)) {
        continue;
      }
      List<Placement> ps = ctx.placements(g);
      KubeSettings.Instance s = ctx.settings().instance(ps.isEmpty() ? "" : ps.get(0).type());
      out.add(
          new Finding(
              id(),
              Severity.WARN,
              Facts.who(w, g) + ": requests EFA but no hugepages-2Mi",
              s.hugepagesWhy() + " Sources: " + ctx.settings().cite(s.sources()) + ".",
              Facts.lines(Facts.resource(g, Resources.EFA).orElseThrow().evidence()),
              "Add hugepages-2Mi: "
                  + s.hugepages2Mi()
                  + " to both limits and requests, with a memory request beside it."));
    }
    return out;
  }
}
