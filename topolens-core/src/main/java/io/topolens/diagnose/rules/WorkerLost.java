package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code worker-lost}: the job's coordinator lost a worker that stopped answering its heartbeats:
 * Ray's GCS marked a node dead ({@code The node with node id: N ... has been marked dead because
 * the detector has missed too many heartbeats from it}) and the actors on it died with it ({@code
 * The actor died because its node has died}, {@code the actor's node was terminated unexpectedly:
 * health check failed due to missing too many heartbeats}), a task's raylet died ({@code
 * LocalRayletDiedError}), or JAX's coordination service found a process silent ({@code Task
 * /job:jax_worker/replica:0/task:1 heartbeat timeout}). The node or process went away; the NCCL
 * errors of the others are consequences.
 */
public final class WorkerLost extends WarningRule {

  public WorkerLost() {
    super(Severity.ERROR, NcclWarning.Kind.WORKER_LOST);
  }

  @Override
  public String id() {
    return "worker-lost";
  }

  @Override
  String title() {
    return "The job's coordinator lost a worker: its node or process stopped answering";
  }

  @Override
  String explanation() {
    return "The cluster runtime that holds the job together stopped hearing from one of its workers and declared it dead: the process or its whole node went away (killed by the kernel's or the container's out-of-memory killer, a segfault, a node preempted or drained, a host that rebooted or lost power) or was cut off from the coordinator (a network partition, a node so overloaded its heartbeats came late). The workers on it are gone; NCCL on the other ranks then fails with a peer that closed its connection (ncclRemoteError, Connection closed by remote peer) or hangs until its watchdog times out: those are consequences.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            List.of("its node has died", "marked dead because the detector", "node was terminated"),
            "Here Ray's GCS marked the node dead after its raylet missed too many health checks (RAY_health_check_period_ms times RAY_health_check_failure_threshold, 3 s x 5 by default on Ray 2.x): every actor on that node (a training worker, a vLLM rollout worker) died with it, and the driver reports ActorDiedError for each.",
            "Find what happened to that node at that time: its raylet.out and dmesg (Out of memory: Killed process raylet or python; ray logs raylet.out -ip IP while the node is up), the cloud's or Kubernetes' events (a spot or preemptible instance reclaimed, kubectl describe node and the pod's events: OOMKilled, Evicted, NodeNotReady); give the node's memory headroom (RAY_memory_usage_threshold, fewer actors per node, the object store's size); only where the node was busy but alive raise the health-check timeouts."),
        new Form(
            "node was preempted",
            "Here the node was preempted: Ray's autoscaler drained it because the cloud provider reclaimed the instance (a spot or preemptible VM) or the cluster scaled it away, and the actors on it died with it.",
            "Checkpoint often enough to resume, run the ranks that must not be lost on on-demand nodes (a node type without spot in the cluster config, a Kubernetes node pool without preemption), and let the trainer restart its worker group (Ray Train's FailureConfig max_failures)."),
        new Form(
            "local raylet died",
            "Here the raylet of the task's own node died: Ray's per-node daemon, which every worker on the node needs; the kernel's out-of-memory killer picks it among the node's largest processes when the node runs out of host memory.",
            "Read the node's raylet.out and dmesg for why the raylet ended (Out of memory: Killed process raylet), and keep the node's memory below its limit (fewer workers per node, a smaller object store, RAY_memory_usage_threshold so Ray's memory monitor kills a worker before the kernel kills the raylet)."),
        new Form(
            "heartbeat timeout",
            "Here JAX's coordination service (run by process 0 of jax.distributed.initialize) stopped receiving heartbeats from the task it names: that process crashed, was killed or preempted, or its host lost the network; the service then fails every other process, so each reports the same task.",
            "Read the named task's own log for how it ended (a Python error, an out-of-memory kill in dmesg or the pod's OOMKilled, a preemption notice); for a process that is alive but stalls (a long compile, a blocking host call) raise jax.distributed.initialize's heartbeat_timeout_seconds (jax 0.6.1 on) rather than losing the job."));
  }

  @Override
  String fix() {
    return "Read the lost worker's own log and its node's kernel log for how it ended (out of memory, a crash, a preemption, a reboot), fix that cause, and restart the job.";
  }
}
