package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintContext.Placement;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Quantity;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An EFA request that does not fit the instance type: EFA on a type without it or more than it has
 * (error: never schedules), or a count other than the pod's share of the node's EFAs by its share
 * of the GPUs (warn: bandwidth left unused, or other pods of the node left without EFA).
 */
public final class EfaCount implements LintRule {
  @Override
  public String id() {
    return "efa-count";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.rankGroups()) {
      Optional<Located<Quantity>> req = Facts.resource(g, Resources.EFA);
      if (req.isEmpty() || req.get().value() == null) {
        continue;
      }
      long count = req.get().value().asLong();
      long gpus = g.pod().gpus().orElse(-1L);
      for (Placement p : ctx.placements(g)) {
        int efa = p.spec().efa();
        int node = p.spec().gpus();
        var ev = Facts.lines(req.get().evidence(), p.evidence());
        String who = Facts.who(w, g);
        if (efa == 0 && count > 0) {
          out.add(
              new Finding(
                  id(),
                  Severity.ERROR,
                  who
                      + ": requests "
                      + Facts.plural(count, "EFA device")
                      + " on "
                      + p.type()
                      + ", which has no EFA",
                  "No "
                      + p.type()
                      + " node advertises vpc.amazonaws.com/efa, so the pods stay Pending (FailedScheduling: Insufficient vpc.amazonaws.com/efa).",
                  ev,
                  "Remove the vpc.amazonaws.com/efa request, or pick an instance type with EFA."));
        } else if (count > efa) {
          out.add(
              new Finding(
                  id(),
                  Severity.ERROR,
                  who + ": requests " + count + " EFA devices; " + p.type() + " has " + efa,
                  "A pod can get at most the node's "
                      + Facts.plural(efa, "EFA device")
                      + ", so the pods stay Pending (Insufficient vpc.amazonaws.com/efa).",
                  ev,
                  "Request vpc.amazonaws.com/efa: "
                      + (gpus > 0 && gpus * efa % node == 0 ? gpus * efa / node : efa)
                      + "."));
        } else if (gpus > 0 && efa > 0) {
          if (gpus * efa % node == 0) {
            long share = gpus * efa / node;
            if (count < share) {
              out.add(
                  new Finding(
                      id(),
                      Severity.WARN,
                      who
                          + ": requests "
                          + count
                          + " of the "
                          + share
                          + " EFA devices that go with "
                          + gpus
                          + " of "
                          + node
                          + " GPUs on "
                          + p.type(),
                      "NCCL uses only the EFA devices the container sees: "
                          + count
                          + " of "
                          + efa
                          + " NICs carry this pod's traffic, about "
                          + Math.round(p.spec().efaGbps() * count / efa)
                          + " of "
                          + Math.round(p.spec().efaGbps())
                          + " Gbit/s, and the rest of the node's EFAs stay idle.",
                      ev,
                      "Request vpc.amazonaws.com/efa: " + share + " (limits and requests)."));
            } else if (count > share) {
              long perNode = node / gpus;
              out.add(
                  new Finding(
                      id(),
                      Severity.WARN,
                      who
                          + ": requests "
                          + count
                          + " EFA devices for "
                          + gpus
                          + " of "
                          + node
                          + " GPUs on "
                          + p.type()
                          + " (its share is "
                          + share
                          + ")",
                      "Each EFA device belongs to one pod: with "
                          + perNode
                          + " pods per node the first takes "
                          + count
                          + " of "
                          + efa
                          + " and the others are left with "
                          + Math.max(0, efa - count)
                          + ", so they stay Pending or run without EFA on another node.",
                      ev,
                      "Request vpc.amazonaws.com/efa: "
                          + share
                          + ", or one pod per node with all "
                          + node
                          + " GPUs and all "
                          + efa
                          + " EFAs."));
            }
          } else if (count * (node / gpus) > efa) {
            out.add(
                new Finding(
                    id(),
                    Severity.WARN,
                    who
                        + ": "
                        + p.type()
                        + "'s "
                        + Facts.plural(efa, "EFA device")
                        + " cannot go round "
                        + node / gpus
                        + " pods of "
                        + Facts.plural(gpus, "GPU"),
                    "Each EFA device belongs to one pod: only "
                        + efa / Math.max(1, count)
                        + " of the "
                        + node / gpus
                        + " pods a node holds can get "
                        + count
                        + ", the others stay Pending or run without EFA.",
                    ev,
                    "One pod per node with all "
                        + node
                        + " GPUs and vpc.amazonaws.com/efa: "
                        + efa
                        + "."));
          }
        }
      }
    }
    return out;
  }
}
