package io.topolens.nccl;

import io.topolens.model.NcclWarning.Kind;

/**
 * Lines of the cluster runtimes and inference engines that RL, serving and JAX jobs run NCCL under,
 * in their own words: Ray (its GCS marking a node dead, an actor dead with its node, a raylet that
 * died, its memory monitor's kills, its autoscaler's request no node can hold, its collective
 * group's rendezvous), JAX (its coordination service's barriers and heartbeats, XLA's clique
 * rendezvous, a CUDA backend without GPUs, XLA's allocator out of GPU memory), vLLM (its worker
 * monitor, its Ray executor), SGLang (its checks of model loading and of the GPUs' free memory) and
 * Gloo under Horovod and PyTorch (a peer's message larger than posted, Horovod's HTTP rendezvous, a
 * recv or send whose peer never came), Slurm's PMIx plugin (its startup fence that timed out),
 * vLLM's message queue that a worker stopped reading, SGLang's scheduler watchdog, and the
 * parallel-layout checks of TensorRT-LLM, vLLM, Megatron-LM and JAX. Read as a warning of the kind
 * the words say; null for other lines, and for reports whose cause is another line (a worker ended
 * by SIGTERM, an actor whose owner died).
 */
final class ClusterRuntimeLine {
  private ClusterRuntimeLine() {}

  /** The event of such a line, or null. */
  static NcclEvent parse(String text) {
    if (text.contains("raise ")) {
      // the statement a traceback quotes, not the error raised
      return null;
    }
    if (layoutInvalid(text)) {
      return warning(Kind.PARALLEL_LAYOUT, text);
    }
    if (workerLost(text)) {
      return warning(Kind.WORKER_LOST, text);
    }
    if (text.contains(Needles.RAY_MEMORY_PRESSURE + " (OOM)")
        || (text.contains(Needles.RAY_KILLED_WORKER) && text.contains("memory usage threshold"))) {
      // Ray's memory monitor killed workers of a node short of host memory: rank-killed's class
      return warning(Kind.KILLED, text);
    }
    Kind ended =
        switch (vllmWorkerSignal(text)) {
          case 9 -> Kind.KILLED;
          case 11 -> Kind.SEGFAULT;
          case 6 -> Kind.ABORTED;
          case 7 -> Kind.SHM;
          default -> null;
        };
    if (ended != null) {
      return warning(ended, text);
    }
    if ((text.contains(Needles.RAY_UNSCHEDULABLE) && text.contains("resource request"))
        || (text.contains(Needles.RAY_DRIVER_NO_GPU) && text.contains("driver node"))
        || text.contains(Needles.VLLM_NODE_NO_GPU + ".")
        || text.contains(Needles.RAY_PG_TIMEOUT + ". Make sure")) {
      return warning(Kind.UNSCHEDULABLE, text);
    }
    if (text.contains("Unable to " + Needles.RAY_COLLECTIVE_MEET)) {
      return warning(Kind.RENDEZVOUS, text);
    }
    int barrier = text.indexOf(Needles.JAX_BARRIER);
    if (barrier >= 0 && text.contains("DEADLINE_EXCEEDED")) {
      // jax.distributed.initialize's connect barrier: processes that never joined the rendezvous;
      // any other barrier: processes of a running program that did not reach it
      boolean connect =
          text.indexOf("PjRT_Client_Connect", barrier) > 0
              || text.indexOf("Wait_for_all_tasks_to_register", barrier) > 0;
      return warning(connect ? Kind.RENDEZVOUS : Kind.LAGGING, text);
    }
    if (text.contains(Needles.JAX_REGISTRATION) && text.contains("coordination service")) {
      // JAX 0.5 on: the coordination service stopped waiting for every process to register
      return warning(Kind.RENDEZVOUS, text);
    }
    if ((text.contains(Needles.XLA_RENDEZVOUS_LATE) && text.contains("to join the rendezvous"))
        || (text.contains(Needles.SGLANG_LOADING) && text.contains("other ranks that"))) {
      return warning(Kind.LAGGING, text);
    }
    if (text.contains(Needles.VLLM_NO_CACHE)
        || text.contains(Needles.SGLANG_NO_CACHE + " --mem")
        || (text.contains(Needles.VLLM_KV_TOO_SMALL) && digitAfter(text, "max seq len ("))
        || (text.contains(Needles.VLLM_KV_NEEDED) && text.contains("KV cache is needed"))) {
      // the engine's KV cache found no room beside the weights: the GPU's memory, not NCCL's
      return warning(Kind.GPU_MEMORY, text);
    }
    if ((text.contains(Needles.SGLANG_UNBALANCED) && text.contains("occupied by other processes"))
        || (text.contains(Needles.VLLM_FREE_MEMORY) && text.contains("Free memory on device"))) {
      // SGLang and vLLM measured the GPUs' free memory before loading: other processes hold it
      return warning(Kind.GPU_UNAVAILABLE, text);
    }
    if (text.contains(Needles.JAX_NO_GPU) && text.contains("Unable to initialize backend")) {
      return warning(Kind.INVALID_DEVICE, text);
    }
    if (text.contains(Needles.XLA_OOM + " while trying to allocate")) {
      return warning(Kind.GPU_MEMORY, text);
    }
    if (text.contains(Needles.GLOO_PREAMBLE) && text.contains("enforce fail")) {
      // a peer's message longer than the receive this rank posted: the ranks' tensors differ
      return warning(Kind.COLLECTIVE_MISMATCH, text);
    }
    if (text.contains(Needles.HOROVOD_STORE_WAIT) && text.contains("http_store")) {
      return warning(Kind.RENDEZVOUS, text);
    }
    if (text.contains(Needles.PMIX_COLL) && text.contains("collective timeout")) {
      // Slurm's mpi/pmix plugin: the startup fence among the step's nodes never completed
      return warning(Kind.RENDEZVOUS, text);
    }
    if (text.contains(Needles.GLOO_OPERATION)
        && text.contains("Timed out waiting ")
        && text.contains("ms for ")) {
      // Gloo's unbound buffer: the peer of a recv or send never came within the timeout
      return warning(Kind.LAGGING, text);
    }
    if (text.contains(Needles.VLLM_SHM_BROADCAST) && text.contains(" found in ")) {
      // vLLM's message queue to its workers: a reader has not taken the last message
      return warning(Kind.LAGGING, text);
    }
    if (text.contains(Needles.SGLANG_WATCHDOG) && !text.contains("soft=True")) {
      // SGLang's scheduler loop made no progress for watchdog_timeout and the server is killed
      // (the soft form, recent releases', only dumps)
      return warning(Kind.WATCHDOG_STUCK, text);
    }
    return null;
  }

  /**
   * Ray's and JAX's coordinators lost a worker that stopped answering: Ray's GCS {@code The node
   * with node id: N ... has been marked dead because the detector has missed too many heartbeats},
   * an actor's death cause {@code The actor died because its node has died} and its reason {@code
   * the actor's node was terminated unexpectedly: ...}, {@code The task's local raylet died}, JAX's
   * {@code Task ... heartbeat timeout. This indicates that the remote task has failed, got
   * preempted, or crashed unexpectedly.}
   */
  static boolean workerLost(String text) {
    return text.contains("because " + Needles.RAY_NODE_DIED)
        || (text.contains(Needles.RAY_NODE_MARKED_DEAD) && text.contains("heartbeats"))
        || text.contains("the actor's " + Needles.RAY_NODE_TERMINATED)
        || text.contains("the actor's " + Needles.RAY_NODE_PREEMPTED)
        || text.contains("The task's " + Needles.RAY_RAYLET_DIED)
        || (text.contains(Needles.JAX_HEARTBEAT) && text.contains("Task "));
  }

  /**
   * A framework's check of its parallel layout against the model or the processes launched:
   * TensorRT-LLM's {@code Engine world size (2 * 1) != Runtime world size (1)}, {@code Assertion
   * failed: mpiSize == tp * pp}, {@code MPI size 1 != TP size 2 * PP size 1}, {@code MPI worldSize
   * is expected to be equal to tp*pp}; vLLM's {@code Total number of attention heads (32) must be
   * divisible by tensor parallel size (3).}; Megatron-LM's {@code world_size (8) is not divisible
   * by tensor_model_parallel_size (3) x ...}; JAX's {@code Unexpected task registered with
   * task_name=}.
   */
  static boolean layoutInvalid(String text) {
    // the values, not the format a traceback quotes ("Engine world size ({world_size})")
    return (digitAfter(text, Needles.TRTLLM_ENGINE_WORLD) && text.contains("Runtime world size"))
        || text.contains(Needles.TRTLLM_MPI_SIZE)
        || (text.contains(Needles.TRTLLM_TP_SIZE) && text.contains("MPI size "))
        || (text.contains(Needles.TRTLLM_TP_PP) && text.contains("worldSize"))
        || (text.contains(Needles.HEADS_NOT_DIVISIBLE) && digitAfter(text, "attention heads ("))
        || (text.contains(Needles.WORLD_NOT_DIVISIBLE) && digitAfter(text, "world_size ("))
        || (text.contains(Needles.JAX_UNEXPECTED_TASK) && text.contains("task_name="));
  }

  /** Whether {@code words} occur followed by a digit. */
  private static boolean digitAfter(String text, String words) {
    int at = text.indexOf(words);
    int after = at + words.length();
    return at >= 0 && after < text.length() && Character.isDigit(text.charAt(after));
  }

  /**
   * The signal vLLM's worker monitor says ended a worker ({@code Worker VllmWorkerProcess pid 1234
   * died, exit code: -9}), -1 where it names none.
   */
  static int vllmWorkerSignal(String text) {
    int at = text.indexOf(Needles.VLLM_WORKER_DIED);
    if (at < 0 || text.lastIndexOf("Worker ", at) < 0) {
      return -1;
    }
    int from = at + Needles.VLLM_WORKER_DIED.length();
    int end = from;
    while (end < text.length() && end - from < 3 && Character.isDigit(text.charAt(end))) {
      end++;
    }
    return end == from ? -1 : Integer.parseInt(text.substring(from, end));
  }

  private static NcclEvent warning(Kind kind, String text) {
    return new NcclEvent.Warning(kind, text.strip(), null, null);
  }
}
