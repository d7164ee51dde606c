package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code ib-memlock}: a verbs call that pins memory failed with ENOMEM ({@code Call to ibv_reg_mr
 * failed with error Cannot allocate memory}): the locked-memory limit (ulimit -l).
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

  @Override
  String fix() {
    return "Raise the locked-memory limit where the ranks run: ulimit -l unlimited (check it inside the launcher: mpirun/srun ... bash -c 'ulimit -l'), memlock unlimited in /etc/security/limits.conf plus LimitMEMLOCK=infinity for daemons that start jobs (slurmd, sshd, the container runtime), docker --ulimit memlock=-1:-1; Kubernetes pods inherit the container runtime's limit.";
  }
}
