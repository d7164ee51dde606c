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
 * {@code inter-node-tcp}: ranks on different nodes talk over NET/Socket. A pair counts as
 * inter-node when its hosts differ, or when a rank's log is missing and NCCL itself counted more
 * than one node.
 */
public final class InterNodeTcp implements Rule {

  @Override
  public String id() {
    return "inter-node-tcp";
  }

  @Override
  public List<Finding> check(Job job) {
    List<CommEdge> tcp = Facts.interNodeSockets(job);
    if (tcp.isEmpty()) {
      return List.of();
    }
    Measurement efa = Measurements.bundled().get("seed-g6e-efa-job");
    Measurement eni = Measurements.bundled().get("seed-g6e-eni-job");
    String explanation =
        Facts.pairCount(tcp)
            + " rank pair(s) on different nodes exchange data over NCCL's TCP socket transport (NET/Socket):"
            + " pairs "
            + Facts.pairs(tcp, 12)
            + ". TCP through the kernel is the slowest path NCCL has; the same Llama-3-8B ZeRO-3 job took "
            + eni.amount()
            + " over TCP (ENI) against "
            + efa.amount()
            + " over EFA, "
            + String.format(Locale.ROOT, "%.1fx", eni.value() / efa.value())
            + " longer ("
            + eni.source()
            + "; "
            + efa.what()
            + ").";
    return List.of(
        new Finding(
            id(),
            Severity.WARN,
            "Traffic between nodes runs over TCP sockets",
            explanation,
            Facts.evidence(tcp),
            "Use the cluster's RDMA fabric: on EKS request EFA devices (vpc.amazonaws.com/efa) and run an image"
                + " with libfabric and aws-ofi-nccl; on InfiniBand/RoCE expose the HCAs to the pod and do not set"
                + " NCCL_IB_DISABLE=1 or NCCL_NET=Socket. Afterwards the log should say \"Using network AWS"
                + " Libfabric\" (or IB) and connections \"via NET/.../GDRDMA\"."));
  }
}
