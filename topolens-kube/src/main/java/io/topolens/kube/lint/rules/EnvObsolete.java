package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintContext.Placement;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.EnvVar;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Workload;
import io.topolens.kube.settings.KubeSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * NCCL and EFA variables that current stacks do not need or that do not do what they are set for
 * ({@code NCCL_IB_DISABLE=0} for EFA, {@code FI_PROVIDER=efa}, {@code NCCL_PROTO=simple}, ...), as
 * {@code kube-settings.json}'s envAdvice lists them with their severity.
 */
public final class EnvObsolete implements LintRule {
  @Override
  public String id() {
    return "env-obsolete";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.groups()) {
      boolean efa = Facts.requestsEfa(g);
      List<Placement> ps = ctx.placements(g);
      for (EnvVar v : g.rankEnv()) {
        for (KubeSettings.EnvAdvice a : ctx.settings().advice(v.name(), v.value())) {
          boolean applies =
              switch (a.when().toLowerCase(Locale.ROOT)) {
                case "efa" -> efa;
                case "gdr" -> !ps.isEmpty() && ps.stream().allMatch(p -> p.spec().gpuDirectRdma());
                case "no-gdr" ->
                    !ps.isEmpty() && ps.stream().noneMatch(p -> p.spec().gpuDirectRdma());
                default -> true;
              };
          if (!applies) {
            continue;
          }
          out.add(
              new Finding(
                  id(),
                  Severity.parse(a.severity()),
                  Facts.who(w, g) + ": " + v.name() + "=" + v.value() + " " + a.shortWhy(),
                  a.why() + " Sources: " + ctx.settings().cite(a.sources()) + ".",
                  Facts.lines(v.evidence()),
                  a.fix()));
        }
      }
    }
    return out;
  }
}
