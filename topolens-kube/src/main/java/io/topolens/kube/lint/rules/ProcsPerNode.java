package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.ProcessCount;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * A stated number of processes per pod ({@code numProcPerNode}, {@code nprocPerNode}, {@code
 * torchrun --nproc_per_node}, {@code slotsPerWorker}, {@code mpirun -N}) other than the pod's GPUs,
 * or an {@code mpirun -np} other than pods times GPUs (error).
 */
public final class ProcsPerNode implements LintRule {
  @Override
  public String id() {
    return "procs-per-node";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.rankGroups()) {
      long gpus = g.pod().gpus().orElse(0L);
      if (gpus <= 0) {
        continue;
      }
      for (ProcessCount pc : g.processes()) {
        String v = pc.value().value();
        if (v == null) {
          continue;
        }
        OptionalLong n = pc.number();
        String word = v.strip().toLowerCase(Locale.ROOT);
        if (pc.perPod()) {
          if (n.isEmpty()) {
            if (word.equals("cpu")) {
              out.add(
                  finding(
                      w,
                      g,
                      pc,
                      "starts one process per CPU core on pods of " + Facts.plural(gpus, "GPU"),
                      "'cpu' makes torchrun start as many processes as the pod has CPU cores: NCCL ranks then share GPUs or run on none.",
                      gpus));
            }
            continue; // auto and gpu start one process per visible GPU
          }
          if (n.getAsLong() != gpus) {
            out.add(
                finding(
                    w,
                    g,
                    pc,
                    "says "
                        + n.getAsLong()
                        + " per pod, but each pod has "
                        + Facts.plural(gpus, "GPU"),
                    n.getAsLong() < gpus
                        ? (gpus - n.getAsLong())
                            + " of the pod's "
                            + gpus
                            + " GPUs get no process and stay idle while they are paid for."
                        : "More processes than GPUs: ranks share a GPU and NCCL refuses it ('Duplicate GPU detected'), or the extra ranks wait for slots that do not exist.",
                    gpus));
          }
        } else {
          int pods = g.count().orElse(-1);
          if (pods > 0 && n.isPresent() && n.getAsLong() != pods * gpus) {
            out.add(
                finding(
                    w,
                    g,
                    pc,
                    "starts "
                        + n.getAsLong()
                        + " processes in all, but "
                        + pods
                        + " pods x "
                        + gpus
                        + " GPUs make "
                        + pods * gpus,
                    n.getAsLong() < pods * gpus
                        ? "Fewer ranks than GPUs: some GPUs get no process."
                        : "More ranks than slots: mpirun fails ('There are not enough slots available') or ranks share GPUs.",
                    gpus));
          }
        }
      }
    }
    return out;
  }

  private Finding finding(
      Workload w, PodGroup g, ProcessCount pc, String what, String why, long gpus) {
    return new Finding(
        id(),
        Severity.ERROR,
        Facts.who(w, g) + ": " + pc.source() + " " + what,
        why
            + " Processes per pod should equal GPUs per pod, one rank per GPU (kubeflow/trainer#1992, opendatahub-io/distributed-workloads#751).",
        Facts.lines(
            pc.value().evidence(),
            Facts.resource(g, io.topolens.kube.model.Resources.GPU)
                .map(l -> l.evidence())
                .orElse(null)),
        "Set "
            + pc.source().replaceAll(" \\(.*\\)$", "")
            + " to "
            + gpus
            + (pc.perPod() ? " per pod" : " x pods")
            + ", matching nvidia.com/gpu: "
            + gpus
            + ".");
  }
}
