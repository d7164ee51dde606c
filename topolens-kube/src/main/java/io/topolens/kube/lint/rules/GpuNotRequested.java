package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * Pods that run training ranks but request no GPU while other ranks of the job do, such as a
 * PyTorchJob Master without {@code nvidia.com/gpu} (error).
 */
public final class GpuNotRequested implements LintRule {
  @Override
  public String id() {
    return "gpu-not-requested";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    boolean gpuJob = w.rankGroups().stream().anyMatch(g -> g.pod().gpus().orElse(0L) > 0);
    if (!gpuJob) {
      return out;
    }
    for (PodGroup g : w.rankGroups()) {
      if (g.pod().gpus().isPresent() && g.pod().gpus().get() == 0) {
        out.add(
            new Finding(
                id(),
                Severity.ERROR,
                Facts.who(w, g) + ": runs training ranks but requests no GPU",
                (g.role().equals("Master")
                        ? "A PyTorchJob's Master is not a coordinator that sits out: it is rank 0 and trains like every Worker (its WORLD_SIZE counts it). "
                        : "")
                    + "Without nvidia.com/gpu the container sees no GPU, so its ranks cannot create their NCCL communicator with the others and the job fails at init_process_group, or, with numProcPerNode auto, starts CPU processes.",
                Facts.lines(g.pod().main().map(c -> c.evidence()).orElse(g.pod().evidence())),
                "Give "
                    + g.role()
                    + " the same nvidia.com/gpu (and EFA) requests as the other ranks."));
      }
    }
    return out;
  }
}
