package io.topolens.diagnose.rules;

import io.topolens.catalog.Measurement;
import io.topolens.catalog.Measurements;
import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Facts.CommEdge;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Interface;
import io.topolens.model.Job;
import io.topolens.model.NetPluginEvent;
import io.topolens.model.NetPluginEvent.Outcome;
import io.topolens.model.PrintedVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code inter-node-tcp}: ranks on different nodes talk over NET/Socket. A pair counts as
 * inter-node when its hosts differ, or when a rank's log is missing and NCCL itself counted more
 * than one node. Without connection lines, NCCL's choice of its socket network ({@code Using
 * network Socket}, {@code NET/Socket : Using [0]bond0:...}) counts where the job spans nodes (its
 * ranks, or two nodes printing the choice), and, as an "if it spans nodes" warning, where nothing
 * shows how many nodes the job has (a pasted excerpt) while the lines show RDMA hardware; what they
 * show of RDMA hardware or settings is named.
 */
public final class InterNodeTcp implements Rule {

  /**
   * Before 2.4.8 bootstrap printed {@code NET/Socket : Using} too (NCCL 2.4.2 prints it before
   * {@code NET/IB : Using}), so there the line alone does not say which network NCCL chose.
   */
  private static final String SOCKET_LINE_IS_THE_NETWORK = "2.4.8";

  @Override
  public String id() {
    return "inter-node-tcp";
  }

  @Override
  public List<Finding> check(Job job) {
    return check(Observed.of(job));
  }

  @Override
  public List<Finding> check(Observed observed) {
    Job job = observed.job();
    RdmaHints hints = RdmaHints.of(observed);
    List<CommEdge> tcp = Facts.interNodeSockets(job);
    if (!tcp.isEmpty()) {
      return List.of(byConnections(tcp, hints));
    }
    Finding chosen = socketNetworkChosen(job, hints);
    return chosen == null ? List.of() : List.of(chosen);
  }

  private Finding byConnections(List<CommEdge> tcp, RdmaHints hints) {
    List<Evidence> lines = new ArrayList<>(Facts.evidence(tcp));
    for (Evidence e : hints.evidence()) {
      if (!lines.contains(e)) {
        lines.add(e);
      }
    }
    return new Finding(
        id(),
        Severity.WARN,
        "Traffic between nodes runs over TCP sockets",
        Facts.pairCount(tcp)
            + " rank pair(s) on different nodes exchange data over NCCL's TCP socket transport (NET/Socket):"
            + " pairs "
            + Facts.pairs(tcp, 12)
            + ". "
            + hints.explanation()
            + measuredCost(),
        lines,
        FIX + hints.fix());
  }

  /**
   * No connection line crosses nodes over sockets, but NCCL chose its socket network: where the job
   * spans nodes, or where nothing shows its nodes at all. Null when another network is in use, the
   * job is shown on one node, or the lines do not say that sockets are NCCL's network.
   */
  private Finding socketNetworkChosen(Job job, RdmaHints hints) {
    if (otherNetworkInUse(job)) {
      return null;
    }
    List<Evidence> lines = new ArrayList<>();
    List<String> processes = new ArrayList<>();
    List<String> names = new ArrayList<>();
    boolean selected = false;
    for (NetPluginEvent p : job.netPlugins()) {
      if (p.outcome() == Outcome.SELECTED && p.plugin().equalsIgnoreCase("Socket")) {
        selected = true;
        lines.add(p.evidence());
        processes.add(p.process());
      }
    }
    boolean oldVersion =
        job.ncclVersions().stream()
            .anyMatch(v -> PrintedVersion.compare(v, SOCKET_LINE_IS_THE_NETWORK) < 0);
    boolean ibFoundNone =
        job.netPlugins().stream()
            .anyMatch(p -> p.outcome() == Outcome.NO_DEVICE && p.plugin().equals("IB"));
    for (Interface i : job.interfaces()) {
      if (i.role() == Interface.Role.SOCKET && (!oldVersion || selected || ibFoundNone)) {
        if (!lines.contains(i.evidence())) {
          lines.add(i.evidence());
        }
        processes.add(i.process());
        if (!names.contains(i.name())) {
          names.add(i.name());
        }
      }
    }
    if (lines.isEmpty()) {
      return null;
    }
    // socket connections whose ranks' nodes are not known (lines before the communicator's)
    for (CommEdge ce : Facts.edges(job, ce -> Facts.isSocket(ce.edge()))) {
      if (!lines.contains(ce.edge().evidence())) {
        lines.add(ce.edge().evidence());
      }
    }
    long nodes = processes.stream().map(p -> job.node(host(p))).distinct().count();
    boolean spans = job.multiNode() || nodes > 1;
    // where nothing shows the job's nodes, only beside RDMA hardware: NCCL on one host prints its
    // socket network too, and is then harmless
    boolean unknown =
        !spans
            && hints.hardware()
            && job.hosts().size() <= 1
            && job.communicators().stream().allMatch(c -> c.nRanks() < 0 && c.nNodes() < 0);
    if (!spans && !unknown) {
      return null;
    }
    for (Evidence e : hints.evidence()) {
      if (!lines.contains(e)) {
        lines.add(e);
      }
    }
    String over = names.isEmpty() ? "" : " over " + String.join(", ", names);
    String chose =
        "NCCL chose its TCP socket network"
            + over
            + (selected ? " (Using network Socket)" : " (NET/Socket : Using ...)")
            + (selected
                ? ""
                : ": from NCCL 2.4.8 on it prints that line only when no network plugin and no"
                    + " IB/RoCE device initialised (before, bootstrap printed it too)");
    String explanation =
        spans
            ? chose
                + ", and this job spans nodes ("
                + (job.multiNode() ? "its ranks" : nodes + " nodes printed that choice")
                + "), so its traffic between nodes runs over TCP (no connection line here ties two"
                + " ranks on different nodes). "
            : chose
                + ". The lines do not show how many nodes the job has: if it spans nodes, its traffic"
                + " between nodes runs over TCP; on one node NCCL does not use its network. ";
    return new Finding(
        id(),
        Severity.WARN,
        spans
            ? "Traffic between nodes runs over TCP sockets (NCCL's network is Socket)"
            : "NCCL's network is TCP sockets: between nodes, if the job spans them, the slowest path",
        explanation + hints.explanation() + measuredCost(),
        lines,
        FIX + hints.fix());
  }

  /**
   * Whether a process chose another network, or a connection runs over one. IB's out-of-band
   * interface ({@code NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:...}) counts unless its process chose
   * sockets or IB found no device there: NCCL 2.2x prints {@code NET/IB : Using [RO]; OOB eth0}
   * before failing to initialise IB for want of a device.
   */
  private static boolean otherNetworkInUse(Job job) {
    if (job.netPlugins().stream()
            .anyMatch(
                p -> p.outcome() == Outcome.SELECTED && !p.plugin().equalsIgnoreCase("Socket"))
        || !Facts.edges(job, ce -> Facts.isNet(ce.edge()) && !Facts.isSocket(ce.edge()))
            .isEmpty()) {
      return true;
    }
    for (Interface i : job.interfaces()) {
      if (i.role() == Interface.Role.OOB
          && job.netPlugins().stream()
              .noneMatch(
                  p ->
                      p.process().equals(i.process())
                          && (p.outcome() == Outcome.SELECTED
                              || (p.outcome() == Outcome.NO_DEVICE && p.plugin().equals("IB"))))) {
        return true;
      }
    }
    return false;
  }

  /** The host of a {@code host:pid} process. */
  static String host(String process) {
    return process.substring(0, Math.max(0, process.lastIndexOf(':')));
  }

  private static String measuredCost() {
    Measurement efa = Measurements.bundled().get("seed-g6e-efa-job");
    Measurement eni = Measurements.bundled().get("seed-g6e-eni-job");
    return "TCP through the kernel is the slowest path NCCL has; the same Llama-3-8B ZeRO-3 job took "
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
  }

  private static final String FIX =
      "Use the cluster's RDMA fabric: on EKS request EFA devices (vpc.amazonaws.com/efa) and run an image"
          + " with libfabric and aws-ofi-nccl; on InfiniBand/RoCE expose the HCAs to the pod and do not set"
          + " NCCL_IB_DISABLE=1 or NCCL_NET=Socket. Afterwards the log should say \"Using network AWS"
          + " Libfabric\" (or IB) and connections \"via NET/.../GDRDMA\".";
}
