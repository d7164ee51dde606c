package io.topolens.kube.lint.rules;

import io.topolens.catalog.Measurement;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintContext.Placement;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * A job of more than one pod, pinned to an instance type with EFA, whose rank pods do not request
 * {@code vpc.amazonaws.com/efa}: NCCL falls back to TCP sockets (error).
 */
public final class EfaNotRequested implements LintRule {
  @Override
  public String id() {
    return "efa-not-requested";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    if (w.rankPods().orElse(2) < 2) {
      return out;
    }
    for (PodGroup g : w.rankGroups()) {
      if (Facts.names(g, Resources.EFA) || g.pod().gpus().orElse(0L) == 0) {
        continue;
      }
      for (Placement p : ctx.placements(g)) {
        int efa = p.spec().efa();
        if (efa == 0) {
          continue;
        }
        long gpus = g.pod().gpus().orElse(0L);
        long share = gpus * efa % p.spec().gpus() == 0 ? gpus * efa / p.spec().gpus() : 0;
        Measurement eni = ctx.measurements().get("seed-g6e-eni-job");
        Measurement efaRun = ctx.measurements().get("seed-g6e-efa-job");
        var main = g.pod().main().orElseThrow();
        out.add(
            new Finding(
                id(),
                Severity.ERROR,
                Facts.who(w, g)
                    + ": "
                    + p.type()
                    + " has "
                    + Facts.plural(efa, "EFA interface")
                    + " but the pods request none",
                "Without vpc.amazonaws.com/efa the EFA device plugin gives the container no EFA device, aws-ofi-nccl finds no provider, and NCCL falls back to TCP sockets over the ENA interface (its log says NET/Socket; topolens diagnose reports net-plugin-fallback). The seeds measured what that costs: "
                    + eni.amount()
                    + " over ENI against "
                    + efaRun.amount()
                    + " over EFA for the same job (seed 001).",
                Facts.lines(
                    main.resources().evidence() != null
                        ? main.resources().evidence()
                        : main.evidence(),
                    p.evidence()),
                "Request vpc.amazonaws.com/efa"
                    + (share > 0 ? ": " + share : "")
                    + " in both limits and requests"
                    + (w.trainer() != null ? " (trainer.resourcesPerNode)" : "")
                    + (share > 0 && share < efa
                        ? "; a pod with all " + p.spec().gpus() + " GPUs gets all " + efa
                        : "")
                    + "."));
      }
    }
    return out;
  }
}
