package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
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
                + " leave the NIC out with NCCL_IB_HCA meanwhile."));
  }

  /** Port and cable lines alone: the kernel's words, not NCCL's verbs errors. */
  @Override
  String explanation(List<NcclWarning> hits) {
    return kernelOnly(hits)
        ? "No NCCL verbs error is in the inputs, only the kernel's line about a port."
        : explanation();
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
