package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code ib-memlock}: a verbs call that pins memory failed with ENOMEM ({@code Call to ibv_reg_mr
 * failed with error Cannot allocate memory}) or ibv_reg_mr with EPERM (a limit of 0), or
 * libfabric's EFA provider failed with -12 ({@code Libfabric error: (-12) Cannot allocate memory}):
 * the locked-memory limit (ulimit -l).
 */
public final class IbMemlock extends WarningRule {

  public IbMemlock() {
    super(Severity.ERROR, NcclWarning.Kind.LOCKED_MEMORY);
  }

  @Override
  public String id() {
    return "ib-memlock";
  }

  @Override
  String title() {
    return "RDMA resources refused: locked-memory limit";
  }

  @Override
  String explanation() {
    return "A verbs call that pins memory (ibv_reg_mr registering a buffer, ibv_create_cq or ibv_create_qp allocating queues) failed with Cannot allocate memory (ENOMEM). Host memory is rarely short: the process may lock only a few MB (ulimit -l, often 64 KB or 8 MB by default, and smaller again inside containers, under systemd services or job schedulers that do not pass the limit on). NCCL's IB transport cannot start, and the job fails or falls back.";
  }

  /** libfabric's EFA provider refused the same way (ENOMEM, -12). */
  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            List.of("operation not permitted"),
            "Here registration failed with Operation not permitted (EPERM): the kernel's"
                + " ib_umem_get pins nothing at all when the locked-memory limit is 0 and the"
                + " process lacks CAP_IPC_LOCK (can_do_mlock), before any size is compared; a"
                + " non-zero limit that is too small gives ENOMEM instead.",
            "Give the processes a locked-memory limit (ulimit -l unlimited; docker --ulimit"
                + " memlock=-1:-1; in Kubernetes the runtime's LimitMEMLOCK, or the IPC_LOCK"
                + " capability in the container's securityContext)."),
        new Form(
            List.of("libfabric error: (", "unable to register mr", "unable to write to eq"),
            "Here it is libfabric's EFA provider (AWS EFA, under aws-ofi-nccl) that failed with -12"
                + " (ENOMEM) registering or posting its receive buffers ('Failure to post internal"
                + " receive buffers', EFA internal error 4112, then abort()): EFA pins its buffers as"
                + " verbs does, against the same locked-memory limit, which containers and pods"
                + " inherit from the container runtime (often 64 KB or 8 MB).",
            "Set the locked-memory limit to unlimited for the processes that use EFA: ulimit -l"
                + " unlimited (check ulimit -l inside the container or pod, not on the host), docker"
                + " run --ulimit memlock=-1:-1, on EKS the container runtime's LimitMEMLOCK=infinity"
                + " (the EKS GPU AMIs set it; custom AMIs and other runtimes may not), in Slurm"
                + " PropagateResourceLimitsExcept=MEMLOCK with slurmd's LimitMEMLOCK=infinity."));
  }

  /** Registration refused with EPERM alone: the form says it; the ENOMEM sentence would not fit. */
  @Override
  String explanation(List<NcclWarning> hits) {
    return hits.stream().allMatch(w -> forms().get(0).saidBy(w))
        ? "A verbs call that pins memory (ibv_reg_mr registering a buffer for RDMA) failed: NCCL's IB"
            + " transport cannot start, and the job fails or falls back."
        : explanation();
  }

  @Override
  String fix() {
    return "Raise the locked-memory limit where the ranks run: ulimit -l unlimited (check it inside the launcher: mpirun/srun ... bash -c 'ulimit -l'), memlock unlimited in /etc/security/limits.conf plus LimitMEMLOCK=infinity for daemons that start jobs (slurmd, sshd, the container runtime), docker --ulimit memlock=-1:-1; Kubernetes pods inherit the container runtime's limit.";
  }
}
