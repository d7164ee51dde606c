package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Communicator;
import io.topolens.model.EnvSetting;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.LaunchCommand;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verbs-library-missing}: NCCL 2.1-2.10's WARN {@code Failed to open libibverbs.so[.1]}
 * (misc/ibvwrap.cu, ibvwrap.cc): no verbs library in the process, so no IB/RoCE transport; NCCL
 * goes on with P2P and SHM in a node and sockets between nodes. Said as what it is, judged by what
 * the log shows of the job's nodes; later versions print the same words as an INFO line, which only
 * inter-node-tcp cites (as a reason the job's network is sockets).
 */
public final class VerbsLibraryMissing extends WarningRule {

  public VerbsLibraryMissing() {
    super(Severity.INFO, NcclWarning.Kind.OTHER);
  }

  @Override
  public String id() {
    return "verbs-library-missing";
  }

  /** Only NCCL's WARN of a missing verbs library; every other line of kind OTHER is not this. */
  @Override
  boolean elsewhere(Job job, NcclWarning w) {
    return !(w.detail() instanceof NcclWarning.Detail.NoVerbsLibrary v && v.warned());
  }

  @Override
  String title() {
    return "No verbs library (libibverbs): this process has no InfiniBand/RoCE transport";
  }

  @Override
  String explanation() {
    return "NCCL could not load libibverbs.so or libibverbs.so.1 (rdma-core's verbs library), so it has"
        + " no IB/RoCE transport in this process and goes on with what it has: P2P and shared memory"
        + " between GPUs of a node, TCP sockets between nodes. NCCL 2.1-2.10 print this as a WARN on"
        + " every host without rdma-core; later versions (2.18.3 on, at least) print the same words"
        + " as an INFO line.";
  }

  @Override
  Context context(Job job, List<NcclWarning> hits) {
    List<Evidence> lines = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    long nodes = nodesSeen(job);
    int mpirunHosts = job.launches().stream().mapToInt(LaunchCommand::hostCount).max().orElse(0);
    if (job.multiNode() || nodes > 1 || mpirunHosts > 1) {
      text.append(
          "This job spans nodes ("
              + (job.multiNode()
                  ? "its ranks"
                  : nodes > 1
                      ? nodes + " nodes printed NCCL lines"
                      : "mpirun places its ranks on " + mpirunHosts + " hosts")
              + "), so its traffic between nodes runs over TCP sockets: where the hosts"
              + " have IB or RoCE NICs, the image lacks rdma-core and forgoes them (inter-node-tcp"
              + " names the connections).");
    } else if (oneNode(job)) {
      text.append(
          "This job runs on one node, where NCCL's network carries nothing between its GPUs: harmless.");
    } else {
      text.append(
          "Harmless where the job runs on one node or the hosts have no RDMA NICs; where it spans"
              + " nodes on hosts with IB or RoCE NICs, the image lacks rdma-core and NCCL's traffic"
              + " between nodes falls back to TCP sockets.");
    }
    for (EnvSetting e : job.env()) {
      if (e.name().equals("NCCL_IB_DISABLE") && e.value().strip().equals("1")) {
        if (lines.isEmpty()) {
          text.append(" NCCL_IB_DISABLE=1 is set too: IB was turned off in any case.");
        }
        lines.add(e.evidence());
      }
    }
    lines.removeIf(java.util.Objects::isNull);
    return new Context(text.toString(), lines);
  }

  /** The nodes whose processes printed NCCL lines: ranks, processes that reached a stage, WARNs. */
  private static long nodesSeen(Job job) {
    java.util.Set<String> nodes = new java.util.HashSet<>();
    job.ranks().forEach(r -> nodes.add(job.node(r.id().host())));
    job.progress().forEach(p -> nodes.add(job.node(InterNodeTcp.host(p.process()))));
    job.warnings().stream()
        .filter(w -> !w.process().isEmpty())
        .forEach(w -> nodes.add(job.node(InterNodeTcp.host(w.process()))));
    return nodes.size();
  }

  /**
   * Whether the log shows the job on one node: a communicator NCCL counted on one node ({@code
   * nNodes 1}), or one whose every rank printed its lines from one node.
   */
  private static boolean oneNode(Job job) {
    for (Communicator c : job.communicators()) {
      if (c.nNodes() == 1) {
        return true;
      }
      if (c.nRanks() > 0
          && c.members().size() == c.nRanks()
          && c.members().values().stream().map(m -> job.node(m.id().host())).distinct().count()
              == 1) {
        return true;
      }
    }
    return false;
  }

  @Override
  String fix() {
    return "Nothing to do on one node or on hosts without RDMA NICs (NCCL_IB_DISABLE=1 silences the"
        + " attempt). To use the hosts' IB/RoCE NICs between nodes, install rdma-core's libibverbs1 and"
        + " ibverbs-providers in the image (or the MLNX_OFED/DOCA user space matching the host) and"
        + " pass /dev/infiniband into the container; the log then says NET/IB : Using [0]mlx5_0:1/IB"
        + " (or RoCE) and connections run via NET/IB.";
  }
}
