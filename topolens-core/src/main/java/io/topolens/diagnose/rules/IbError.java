package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

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

  @Override
  String fix() {
    return "Check the links (ibstat, ibv_devinfo: State Active, rate as expected), error counters (perfquery,"
        + " ethtool -S for RoCE), NCCL_IB_GID_INDEX on RoCE (show_gids), NCCL_IB_HCA naming only healthy ports, and"
        + " that the peer named in the warning was still running.";
  }
}
