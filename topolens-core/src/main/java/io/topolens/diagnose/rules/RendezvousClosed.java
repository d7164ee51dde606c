package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code rendezvous-closed}: torchrun's agent found its elastic rendezvous closed by another agent
 * ({@code torch.distributed.elastic.rendezvous.api.RendezvousClosedError}).
 */
public final class RendezvousClosed extends WarningRule {

  public RendezvousClosed() {
    super(Severity.ERROR, NcclWarning.Kind.RENDEZVOUS_CLOSED);
  }

  @Override
  public String id() {
    return "rendezvous-closed";
  }

  @Override
  String title() {
    return "torchrun's elastic rendezvous was closed by another node's agent";
  }

  @Override
  String explanation() {
    return "torchrun's agent raised RendezvousClosedError: it tried to join (or rejoin, to restart its workers) a rendezvous that another agent had closed. An agent closes the rendezvous when its own worker group failed past --max-restarts, finished, or was stopped (Ctrl-C, SIGTERM from the scheduler, a deleted pod); the others then cannot restart and end with this error. It also meets a run that reuses the --rdzv-id of a finished job on a store that still holds it (etcd). This node's error is a consequence: the cause is the first failure on another node.";
  }

  @Override
  String fix() {
    return "Read the other nodes' logs for the first failure (an exit code, a traceback, a kill) before this error and fix that; give every job its own --rdzv-id (e.g. the scheduler's job id, $SLURM_JOB_ID) and, for etcd, a fresh id or key prefix; on Kubernetes make sure a pod that restarts does not rejoin a rendezvous its job already closed (restart the whole job, or --max-restarts with a c10d store that lives as long as the job).";
  }
}
