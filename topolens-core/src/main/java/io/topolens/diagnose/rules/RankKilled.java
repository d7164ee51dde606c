package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code rank-killed}: a rank died of SIGKILL (torchrun's {@code exitcode: -9}, {@code Signal 9
 * (SIGKILL)}, Open MPI's {@code exited on signal 9 (Killed)}) or the out-of-memory killer said so
 * (Slurm's {@code oom-kill event(s)}, the kernel's {@code Out of memory: Killed process}, a memory
 * cgroup's {@code Memory cgroup out of memory: Killed process}, {@code oom-kill:constraint=...}),
 * or Kubernetes did ({@code Reason: OOMKilled}; the kubelet's eviction {@code The node was low on
 * resource: memory.}, a form of its own).
 */
public final class RankKilled extends WarningRule {

  public RankKilled() {
    super(Severity.ERROR, NcclWarning.Kind.KILLED);
  }

  @Override
  public String id() {
    return "rank-killed";
  }

  @Override
  String title() {
    return "A rank was killed (SIGKILL, usually out of host memory)";
  }

  @Override
  String explanation() {
    return "A rank's process ended by SIGKILL (exit code -9), which it cannot catch: nothing in the rank's own log says why, because it had no chance to print. The usual sender is the kernel's out-of-memory killer, when the node (or the container's or Slurm job's memory cgroup) runs out of host RAM: every rank loading a full model copy, many DataLoader workers, pinned-memory buffers. A scheduler or an operator (a time limit, a preemption, kill -9) does the same. The other ranks then fail with a peer that closed its connection (ncclRemoteError, Connection closed by remote peer) or time out in their next collective: those are consequences, not the cause.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            List.of("killed due to memory pressure", "ray killed this worker"),
            "Here Ray's memory monitor killed the worker: the raylet watches the node's host memory and, above RAY_memory_usage_threshold (0.95 of the node's memory by default), kills the most recently scheduled worker before the kernel's out-of-memory killer would; an RL job's rollout and training actors on one node, each with a copy of the model in host memory, are the usual cause.",
            "Read `ray logs raylet.out -ip IP` for the workers killed and the memory they held; give the node memory headroom (fewer actors per node, load weights without a host copy, a smaller object store with object_store_memory) or set memory= on the actors so Ray places fewer per node."),
        new Form(
            "low on resource: memory",
            "Here the kubelet evicted the pod because the node ran low on memory (its eviction threshold, before the kernel's OOM killer): it evicts first the pods that use more memory than they request, and a training pod with no memory request (\"exceeds its request of 0\") is among the first.",
            "Give the training pods memory requests equal to their limits (Guaranteed QoS, evicted last) sized to what each rank uses, and keep other pods off the GPU nodes (taints, a node pool of their own); kubectl describe node shows MemoryPressure and what runs there."));
  }

  @Override
  String fix() {
    return "Look for the killer on the node: dmesg or journalctl -k (Out of memory: Killed process; Memory cgroup out of memory: the container's or job's limit, not the node's), sacct -j JOB -o MaxRSS,State (OUT_OF_MEMORY), kubectl describe pod (OOMKilled); lower the host memory per node (load the model once or with low_cpu_mem_usage / meta device, fewer DataLoader workers, smaller prefetch) or raise the memory limit.";
  }
}
