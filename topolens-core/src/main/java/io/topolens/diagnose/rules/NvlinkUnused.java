package io.topolens.diagnose.rules;

import io.topolens.catalog.Measurement;
import io.topolens.catalog.Measurements;
import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Facts.CommEdge;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.Transport;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code nvlink-unused}: the topology given beside the logs joins the GPUs by NVLink (NV# in
 * nvidia-smi topo -m, or NVLinks in NCCL's topology dump), yet ranks on one node talk through SHM
 * or the network.
 */
public final class NvlinkUnused extends BesideRule {

  @Override
  public String id() {
    return "nvlink-unused";
  }

  @Override
  public List<Finding> check(Observed o) {
    if (o.topology() == null || !o.topology().nvlink()) {
      return List.of();
    }
    Job job = o.job();
    List<CommEdge> slow =
        Facts.edges(
            job,
            ce ->
                (ce.edge().transport() == Transport.SHM || ce.edge().transport() == Transport.NET)
                    && Boolean.TRUE.equals(
                        job.sameNode(ce.comm(), ce.edge().from(), ce.edge().to())));
    if (slow.isEmpty()) {
      return List.of();
    }
    long shm = slow.stream().filter(ce -> ce.edge().transport() == Transport.SHM).count();
    String via =
        shm == slow.size() ? "SHM (host memory)" : shm == 0 ? "the network" : "SHM and the network";
    Measurement p2p = Measurements.bundled().get("h200-allreduce-busbw-p2p");
    Measurement viaShm = Measurements.bundled().get("h200-allreduce-busbw-shm");
    Measurement sock = Measurements.bundled().get("h200-allreduce-busbw-socket");
    List<Evidence> evidence = new ArrayList<>(o.topology().evidence().stream().limit(2).toList());
    evidence.addAll(Facts.evidence(slow));
    return List.of(
        new Finding(
            id(),
            Severity.ERROR,
            "NVLink-connected GPUs talk through " + via,
            "The topology given ("
                + o.topology().summary()
                + ") joins these GPUs by NVLink, but "
                + Facts.pairCount(slow)
                + " pair(s) of ranks on one node use "
                + via
                + ": pairs "
                + Facts.pairs(slow, 12)
                + ". On 4 x H200 the same all_reduce ran at "
                + p2p.amount()
                + " over NVLink, "
                + viaShm.amount()
                + " over SHM and "
                + sock.amount()
                + " over sockets ("
                + p2p.source()
                + "). The topology is assumed to describe every node of the job.",
            evidence,
            "Remove NCCL_P2P_DISABLE / NCCL_P2P_LEVEL / NCCL_SHM_DISABLE from the environment, and run all GPUs of a"
                + " node in one pod or container (pods of one node see each other as different hosts and use the"
                + " network)."));
  }
}
