package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ib-error}: InfiniBand/RoCE verbs errors: completion errors, QP transitions, device
 * failures.
 */
public final class IbError extends WarningRule {

  public IbError() {
    super(Severity.ERROR, NcclWarning.Kind.IB);
  }

  @Override
  public String id() {
    return "ib-error";
  }

  @Override
  String title() {
    return "InfiniBand/RoCE errors";
  }

  @Override
  String explanation() {
    return "NCCL's IB transport reported verbs errors. A completion with status 12 (transport retry counter"
        + " exceeded) or 13 (RNR retry) means the peer stopped answering: a link flapped, a peer process died, or"
        + " RoCE lost packets (PFC/ECN misconfigured); status 4 (local protection) and 10 (remote access) point at"
        + " memory registration, often GPUDirect RDMA (nvidia-peermem) problems; a failed ibv_modify_qp usually"
        + " means a wrong GID index or a port that is down; NCCL failing to read a GID's RoCE version"
        + " (open or read failed in ncclIbRoceGetVersionNum) means the GID index it tried has no entry in"
        + " /sys/class/infiniband/DEV/ports/N/gid_attrs/types (an empty GID, as macvlan or SR-IOV interfaces in"
        + " pods leave).";
  }

  /**
   * The IB warnings, and a RoCE GID left to NCCL's automatic choice beside NCCL_IB_ROCE_VERSION_NUM
   * when a connect then failed.
   */
  @Override
  public List<Finding> check(Job job) {
    List<Finding> out = new ArrayList<>(super.check(job));
    Finding gid = gidLeftToNccl(job);
    if (gid != null) {
      out.add(gid);
    }
    return out;
  }

  /**
   * NCCL_IB_ROCE_VERSION_NUM set, NCCL_IB_GID_INDEX not, and NCCL's proxy failed a Connect ({@code
   * [Proxy Service N] Failed to execute operation Connect from rank R, retcode 3}): NCCL chose the
   * GID itself, reading each GID's RoCE type and address from sysfs, which in a pod (macvlan,
   * SR-IOV) often lacks them; 2.22.3 then failed the connect and crashed (nccl issue 1538, fixed
   * for containers in 2.26). Likely, not proven: a warning.
   */
  private Finding gidLeftToNccl(Job job) {
    String version = job.envValue("NCCL_IB_ROCE_VERSION_NUM");
    if (version == null || job.envValue("NCCL_IB_GID_INDEX") != null) {
      return null;
    }
    List<NcclWarning> connect =
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.PROXY && w.evidence() != null)
            .filter(
                w ->
                    w.message().contains("operation Connect")
                        || w.message().contains("operation=Connect"))
            .toList();
    if (connect.isEmpty()) {
      return null;
    }
    List<Evidence> evidence = new ArrayList<>();
    job.env().stream()
        .filter(e -> e.name().equals("NCCL_IB_ROCE_VERSION_NUM") && e.evidence() != null)
        .findFirst()
        .ifPresent(e -> evidence.add(e.evidence()));
    connect.stream().map(NcclWarning::evidence).limit(2).forEach(evidence::add);
    return new Finding(
        id(),
        Severity.WARN,
        "RoCE GID left to NCCL's choice (NCCL_IB_ROCE_VERSION_NUM="
            + version
            + ", no NCCL_IB_GID_INDEX), then a connect failed",
        "NCCL_IB_ROCE_VERSION_NUM is set and NCCL_IB_GID_INDEX is not, so NCCL picks the GID index"
            + " itself: it reads each GID's RoCE type and address from"
            + " /sys/class/infiniband/DEV/ports/N/gid_attrs and takes the first one of that version."
            + " In a pod (macvlan or SR-IOV RoCE interfaces, GIDs from index 4 and up) those entries"
            + " are often missing or empty, and the choice lands on a GID the peer cannot reach or"
            + " that has no entry: the proxy's Connect failed here, and NCCL 2.22 then crashed"
            + " (SIGSEGV) on the failed connection (nccl issue 1538; NCCL 2.26 fixed the selection"
            + " in containers). Likely, not proven: the log names no GID.",
        evidence,
        "Set NCCL_IB_GID_INDEX to the RoCE v2 GID with the pod's IPv4 address (show_gids inside"
            + " the pod, or cat /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/*), the same"
            + " index on every node where they agree, or per node where they differ; or upgrade NCCL"
            + " to 2.26 or later.");
  }

  /** The kernel's port-down and cable lines: a link of the host, not NCCL's verbs. */
  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            List.of(" link down", "port module event"),
            "The kernel reported an IB/RoCE port of the host going down (Port: N Link DOWN) or its"
                + " cable module failing (Port module event[error]): NCCL's transfers over that"
                + " NIC then fail with completion errors (status 12, transport retry counter exceeded)"
                + " or hang until the framework's timeout.",
            "On that host: ibstat or ibv_devinfo (port State and Physical state), the cable or"
                + " transceiver and the switch port (mlxlink -d DEVICE -p PORT, reseat or replace);"
                + " leave the NIC out with NCCL_IB_HCA meanwhile."),
        new Form(
            List.of(
                "ibv_modify_qp failed with 110",
                "ibv_modify_qp failed with -110",
                "ibv_modify_qp failed with error connection timed out"),
            "ibv_modify_qp timing out (110, ETIMEDOUT; NCCL retries it before giving up) means the"
                + " queue pair could not reach the peer's port: the two NICs NCCL paired cannot talk"
                + " to each other. NCCL pairs the NICs of two ranks by their place in each rank's list"
                + " (NCCL_IB_HCA, or the order it found them), so on a rail-connected fabric, where"
                + " only NICs of the same rail reach each other, a cross-rail pair times out; an"
                + " NCCL_IB_HCA list naming ports on different subnets, a direct-connect or"
                + " link-local port does the same on RoCE, as does a RoCE GID index whose address"
                + " the peer cannot route. NCCL's own hint for this error: \"the NICs are not"
                + " cross-rail connected\" (misc/ibvwrap.cc); its maintainer in NVIDIA/nccl issue"
                + " 2013: \"often indicates that the NICs are unable to communicate\", fixed there by"
                + " NCCL_CROSS_NIC=0; ainode PR 89 named in NCCL_IB_HCA only the port that holds"
                + " the node's fabric address.",
            "Make every pair of listed ports reachable, or list only those that are: NCCL_IB_HCA"
                + " naming the same rail's ports in the same order on every node (ibdev2netdev,"
                + " show_gids; ping each peer's address from each port), NCCL_CROSS_NIC=0 on a"
                + " rail-connected fabric, NCCL_IB_GID_INDEX of the RoCE v2 GID that holds the"
                + " fabric's IPv4 address."));
  }

  /** Port and cable lines alone: the kernel's words, not NCCL's verbs errors. */
  @Override
  String explanation(List<NcclWarning> hits) {
    if (kernelOnly(hits)) {
      return "No NCCL verbs error is in the inputs, only the kernel's line about a port.";
    }
    VerbsReading r = VerbsReading.of(hits);
    return r == null ? explanation() : r.explanation();
  }

  /** The typed reading's title where the lines name a call and errno, or a completion's status. */
  @Override
  String title(List<NcclWarning> hits) {
    VerbsReading r = VerbsReading.of(hits);
    return r == null ? title() : r.title();
  }

  /** The typed reading's fix before the forms' and the generic one. */
  @Override
  String fix(List<NcclWarning> hits) {
    VerbsReading r = VerbsReading.of(hits);
    return r == null ? super.fix(hits) : r.fix();
  }

  private boolean kernelOnly(List<NcclWarning> hits) {
    return hits.stream().allMatch(w -> forms().get(0).saidBy(w));
  }

  /** Port and cable lines alone, with no NCCL verbs error: a warning (a port may come back). */
  @Override
  Severity severity(Job job, List<NcclWarning> hits) {
    return kernelOnly(hits) ? Severity.WARN : Severity.ERROR;
  }

  @Override
  String fix() {
    return "Check the links (ibstat, ibv_devinfo: State Active, rate as expected), error counters (perfquery,"
        + " ethtool -S for RoCE), NCCL_IB_GID_INDEX on RoCE (show_gids), NCCL_IB_HCA naming only healthy ports, and"
        + " that the peer named in the warning was still running.";
  }
}
