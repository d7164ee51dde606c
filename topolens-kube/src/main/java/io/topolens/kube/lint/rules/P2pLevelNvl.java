package io.topolens.kube.lint.rules;

import io.topolens.catalog.Measurement;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintContext.Placement;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.EnvVar;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code NCCL_P2P_LEVEL=NVL} on an instance type whose GPUs have no NVLink: every pair of GPUs in a
 * pod falls back from P2P to shared memory (warn); on NVLink GPUs it restates the default (info).
 */
public final class P2pLevelNvl implements LintRule {
  @Override
  public String id() {
    return "p2p-level-nvl";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.rankGroups()) {
      for (EnvVar v : Facts.env(g, "NCCL_P2P_LEVEL")) {
        if (v.value() == null || !v.value().strip().equalsIgnoreCase("NVL")) {
          continue;
        }
        List<Placement> ps = ctx.placements(g);
        Measurement p2p = ctx.measurements().get("h200-allreduce-busbw-p2p");
        Measurement shm = ctx.measurements().get("h200-allreduce-busbw-shm");
        if (ps.isEmpty()) {
          out.add(
              new Finding(
                  id(),
                  Severity.INFO,
                  Facts.who(w, g) + ": NCCL_P2P_LEVEL=NVL allows P2P only over NVLink",
                  "On GPUs with NVLink it restates NCCL's default; on PCIe-only GPUs (L40S, L4, A10G) it turns every same-pod GPU pair from P2P into SHM. The pods pin no instance type topolens knows, so it cannot tell which.",
                  Facts.lines(v.evidence()),
                  "Remove NCCL_P2P_LEVEL; NCCL picks P2P wherever the topology allows it."));
        }
        for (Placement p : ps) {
          if (p.gpu().hasNvlink()) {
            out.add(
                new Finding(
                    id(),
                    Severity.INFO,
                    Facts.who(w, g) + ": NCCL_P2P_LEVEL=NVL restates the default on " + p.type(),
                    p.gpu().name()
                        + " GPUs are joined by NVLink, which NCCL uses for P2P anyway; the variable changes nothing here and breaks the job's portability to PCIe-only instance types.",
                    Facts.lines(v.evidence(), p.evidence()),
                    "Remove NCCL_P2P_LEVEL."));
          } else {
            out.add(
                new Finding(
                    id(),
                    Severity.WARN,
                    Facts.who(w, g)
                        + ": NCCL_P2P_LEVEL=NVL on "
                        + p.type()
                        + ", whose "
                        + p.gpu().name()
                        + " GPUs have no NVLink",
                    "NVL allows P2P only between GPUs joined by NVLink. "
                        + p.type()
                        + "'s GPUs reach each other over PCIe, so NCCL uses SHM (through host memory) between every pair of GPUs in a pod instead of P2P; the seeds' g6e logs print 'via SHM/direct/direct' with it set. On 4 x H200 SHM measured "
                        + shm.amount()
                        + " against "
                        + p2p.amount()
                        + " over P2P (all_reduce busbw).",
                    Facts.lines(v.evidence(), p.evidence()),
                    "Remove NCCL_P2P_LEVEL; NCCL then uses P2P over PCIe where the topology allows it (check with nvidia-smi topo -p2p r)."));
          }
        }
      }
    }
    return out;
  }
}
