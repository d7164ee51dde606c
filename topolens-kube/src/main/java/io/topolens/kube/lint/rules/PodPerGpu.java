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
import java.util.Locale;

/**
 * Pods that hold fewer GPUs than their multi-GPU instance type has: with more than one pod in the
 * job, pods share nodes and talk over the network instead of NVLink or PCIe (warn); a lone pod only
 * leaves GPUs idle (info).
 */
public final class PodPerGpu implements LintRule {
  @Override
  public String id() {
    return "pod-per-gpu";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.rankGroups()) {
      long gpus = g.pod().gpus().orElse(0L);
      for (Placement p : ctx.placements(g)) {
        int node = p.spec().gpus();
        if (gpus <= 0 || node <= 1 || gpus >= node) {
          continue;
        }
        int pods = w.rankPods().orElse(Integer.MAX_VALUE);
        String intra =
            p.gpu().hasNvlink()
                ? String.format(
                    Locale.ROOT,
                    "NVLink (%.0f GB/s per GPU per direction on %s)",
                    p.gpu().nvlink().gbps(),
                    p.gpu().name())
                : p.gpu().pcie() != null
                    ? String.format(
                        Locale.ROOT,
                        "PCIe P2P or shared memory (up to %.0f GB/s per GPU on %s)",
                        p.gpu().pcie().gbps(),
                        p.gpu().name())
                    : "the GPUs' own links";
        var evidence =
            Facts.lines(
                Facts.resource(g, Resources.GPU).map(l -> l.evidence()).orElse(null), p.evidence());
        if (pods <= 1) {
          out.add(
              new Finding(
                  id(),
                  Severity.INFO,
                  Facts.who(w, g)
                      + ": its one pod holds "
                      + gpus
                      + " of the "
                      + node
                      + " GPUs of a "
                      + p.type(),
                  "The other "
                      + (node - gpus)
                      + " GPUs of the node stay free for other pods; nothing of this job crosses pods.",
                  evidence,
                  "Request all "
                      + node
                      + " GPUs (nvidia.com/gpu: "
                      + node
                      + ") if the job should have the node to itself."));
          continue;
        }
        long perNode = node / gpus;
        Measurement p2p = ctx.measurements().get("h200-allreduce-busbw-p2p");
        Measurement sock = ctx.measurements().get("h200-allreduce-busbw-socket");
        out.add(
            new Finding(
                id(),
                Severity.WARN,
                Facts.who(w, g)
                    + ": each pod holds "
                    + gpus
                    + " of the "
                    + node
                    + " GPUs of a "
                    + p.type()
                    + ", so up to "
                    + perNode
                    + " pods share a node",
                "Every pod is its own NCCL node: ranks in different pods on one host cannot use "
                    + intra
                    + " between them and send their traffic through the network instead, EFA or TCP, "
                    + String.format(
                        Locale.ROOT, "%.0f GB/s for the whole %s", p.spec().networkGBps(), p.type())
                    + (p.spec().efa() > 0
                        ? " shared by its pods (each EFA device belongs to one pod)"
                        : "")
                    + ". Measured on 4 x H200: all_reduce busbw "
                    + p2p.amount()
                    + " over NVLink P2P against "
                    + sock.amount()
                    + " over sockets between GPUs of one host. One pod per node holding all its GPUs is the seeds' own conclusion (seed 003; kubeflow/trainer#1790).",
                evidence,
                "One pod per node: nvidia.com/gpu: "
                    + node
                    + " and "
                    + node
                    + " processes per pod (numProcPerNode / nprocPerNode / slotsPerWorker), one pod per node in the replica count; `topolens plan --instance "
                    + p.type()
                    + " --nodes N` writes it."));
      }
    }
    return out;
  }
}
