package io.topolens.diagnose.rules;

import io.topolens.catalog.Measurement;
import io.topolens.catalog.Measurements;
import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Facts.CommEdge;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import java.util.List;
import java.util.Locale;

/**
 * {@code same-host-over-network}: ranks on one node (same hostname, or same node in the pod-to-node
 * map) talk through a NET transport instead of P2P or SHM.
 */
public final class SameHostOverNetwork implements Rule {

  @Override
  public String id() {
    return "same-host-over-network";
  }

  @Override
  public List<Finding> check(Job job) {
    List<CommEdge> net =
        Facts.edges(
            job,
            ce ->
                Facts.isNet(ce.edge())
                    && Boolean.TRUE.equals(
                        job.sameNode(ce.comm(), ce.edge().from(), ce.edge().to())));
    if (net.isEmpty()) {
      return List.of();
    }
    Measurement p2p = Measurements.bundled().get("h200-allreduce-busbw-p2p");
    Measurement sock = Measurements.bundled().get("h200-allreduce-busbw-socket");
    boolean p2pOff = "1".equals(job.envValue("NCCL_P2P_DISABLE"));
    boolean shmOff = "1".equals(job.envValue("NCCL_SHM_DISABLE"));
    String cause;
    if (p2pOff && shmOff) {
      cause =
          " The environment disables both P2P and SHM (NCCL_P2P_DISABLE=1, NCCL_SHM_DISABLE=1), which leaves NCCL only the network.";
    } else if (job.hasNodeMap()) {
      cause =
          " These ranks run in different pods on the same node: NCCL tells nodes apart by hostname and boot id, and every pod has its own hostname, so it treats each pod as a separate node and never uses NVLink or shared memory between them.";
    } else {
      cause =
          " NCCL counted these ranks as different nodes (nNodes "
              + net.get(0).comm().nNodes()
              + ") although they share the hostname.";
    }
    String explanation =
        Facts.pairCount(net)
            + " pair(s) of ranks on the same node exchange data through the network transport: pairs "
            + Facts.pairs(net, 12)
            + "."
            + cause
            + " Measured on 4 x H200 in one host: all_reduce reached "
            + sock.amount()
            + " over sockets against "
            + p2p.amount()
            + " over P2P/NVLink, "
            + String.format(Locale.ROOT, "%.0fx", p2p.value() / sock.value())
            + " slower (topolens fixtures h200x4, nccl-tests 2.19.6, NCCL 2.28.9).";
    String fix =
        p2pOff || shmOff
            ? "Remove NCCL_P2P_DISABLE and NCCL_SHM_DISABLE from the environment."
            : "Run one pod per node holding all of its GPUs (nvidia.com/gpu: all GPUs of the node, torchrun"
                + " --nproc_per_node=<GPUs>), so NCCL sees one node and uses P2P over NVLink/PCIe. Sharing IPC between"
                + " pods (hostIPC, NCCL_HOSTID) also works but needs privileges the cluster should not grant.";
    return List.of(
        new Finding(
            id(),
            Severity.ERROR,
            "Ranks on the same node talk over the network",
            explanation,
            Facts.evidence(net),
            fix));
  }
}
