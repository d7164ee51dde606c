package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code lagging-ranks}: a framework named the ranks that did not reach a collective the others
 * waited in: PyTorch's desync report (TORCH_NCCL_DESYNC_DEBUG=1: {@code ranks [47] are the lagging
 * ranks that caused this timeout. They never joined any collectives}, {@code [47] joined but didn't
 * finish collective #41207 (count from 1)}, {@code [0, 1] finished collective #41207, but didn't
 * join collective #41208}), Horovod's stall inspector ({@code ... by subset of ranks and are
 * waiting for remainder of ranks ... [missing ranks: 1]}), PyTorch's monitored_barrier ({@code Rank
 * 1 failed to pass monitoredBarrier in 2000 ms}).
 */
public final class LaggingRanks extends WarningRule {

  /** The ranks each form names, in its first group. */
  private static final List<Pattern> NAMED =
      List.of(
          Pattern.compile("ranks \\[([0-9, ]+)\\] are the lagging ranks"),
          Pattern.compile("\\[([0-9, ]+)\\] joined but didn't finish collective"),
          Pattern.compile("\\[([0-9, ]+)\\] finished collective #\\d+, but didn't join"),
          Pattern.compile("missing ranks: ([0-9, ]+)\\]"),
          Pattern.compile("Ranks? ([0-9, ]+) failed to pass monitoredBarrier"));

  public LaggingRanks() {
    super(Severity.ERROR, NcclWarning.Kind.LAGGING);
  }

  @Override
  public String id() {
    return "lagging-ranks";
  }

  @Override
  String title() {
    return "Some ranks did not reach the collective the others waited in";
  }

  /** The ranks the lines name, in order. */
  static TreeSet<Integer> ranks(List<NcclWarning> hits) {
    TreeSet<Integer> ranks = new TreeSet<>();
    for (NcclWarning w : hits) {
      for (Pattern p : NAMED) {
        Matcher m = p.matcher(w.message());
        while (m.find()) {
          for (String r : m.group(1).split(",")) {
            if (!r.isBlank()) {
              ranks.add(Integer.parseInt(r.strip()));
            }
          }
        }
      }
    }
    return ranks;
  }

  @Override
  String title(List<NcclWarning> hits) {
    TreeSet<Integer> ranks = ranks(hits);
    if (ranks.isEmpty()) {
      return title();
    }
    List<String> names = ranks.stream().limit(16).map(String::valueOf).toList();
    return (ranks.size() == 1 ? "Rank " : "Ranks ")
        + String.join(", ", names)
        + (ranks.size() > 16 ? " and " + (ranks.size() - 16) + " more" : "")
        + " did not reach the collective the others waited in";
  }

  @Override
  String explanation() {
    return "The framework compared what each rank had started and finished and named the ranks that are behind: a rank that never joined any collective (it crashed, is stuck before its first collective, or was never started), one that joined a collective and did not finish it (stuck inside it, often on a network or GPU fault of its own), or ones that finished the last collective but never called the next (they took another code path: a branch only some ranks run, uneven data so one rank has fewer batches, a collective inside a condition). The other ranks' timeouts are the consequence; the named ranks' own logs hold the cause. Horovod names them as the ranks that have not submitted a tensor the others wait for (a tensor named differently on some ranks is the same mistake). PyTorch's monitored_barrier names them as the ranks that did not reach the barrier within its timeout (rank 0 waits for each of the others in turn, over Gloo).";
  }

  /**
   * vLLM's engine waiting for a worker to read its shared-memory broadcast: printed every 60 s
   * while it waits, so a warning alone.
   */
  private static final Form VLLM_BROADCAST =
      new Form(
          List.of("no available shared memory broadcast block"),
          "Here vLLM's engine waited for its workers to read the last message it broadcast through shared memory (vLLM's message queue to the tensor- and pipeline-parallel workers) and one had not within 60 s: a worker hung (stuck in an NCCL collective whose peer never came, or in a GPU fault) or busy with long work (torch.compile or CUDA graph capture at start-up, which ends by itself). vLLM prints this every 60 s while it waits; it is a warning, not a failure, until the engine gives up.",
          "If it repeats past start-up, find the stuck worker: py-spy dump --pid PID on each worker process, NCCL_DEBUG=INFO for a collective that never finishes, dmesg and nvidia-smi for a GPU fault; if it appears only while the model compiles, it is the compile (--enforce-eager skips CUDA graph capture to confirm).");

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            "barrier timed out",
            "Here JAX's coordination service named the processes (tasks /job:jax_worker/replica:0/task:N, on the lines after it) that did not reach a program's barrier (multihost_utils.sync_global_devices, a checkpoint's or logger's barrier) within its timeout while the others waited.",
            "Read the named tasks' logs: a process that crashed or was preempted, or one still busy (loading data or a checkpoint, compiling) longer than the barrier's timeout; make every process reach the same barriers in the same order, or raise the barrier's timeout where the work is legitimately long."),
        new Form(
            "not all of them arrived on time",
            "Here XLA's rendezvous for an NCCL clique (its communicator for a set of devices) waited for the devices of other processes, which did not arrive: a process that is not at the same collective (still compiling, on another step, dead), or one whose NCCL init is stuck on the network. XLA prints this while it waits; the run goes on if they arrive.",
            "Check that every process runs the same program and reaches the same collective (the same jitted function, the same mesh), read the others' logs for an error or a slow compile, and run with NCCL_DEBUG=INFO to see whether NCCL's init itself hangs."),
        new Form(
            List.of("for recv operation to complete", "for send operation to complete"),
            "Here Gloo (torch.distributed's gloo backend: a CPU process group, a monitored_barrier, an object collective such as all_gather_object or broadcast_object_list) waited the whole timeout for a peer's message that never came: the peer rank did not reach the same collective (it crashed or was killed, is stuck in other work such as an NCCL collective or a long evaluation, or took another code path). The line does not name the rank; the other ranks' logs do.",
            "Read every rank's log for the one that stopped first (an error, an out-of-memory kill, a stack in other code: py-spy dump --pid PID); make every rank reach the same Gloo collectives in the same order; where one rank's work is legitimately long (rank 0 saving a checkpoint), raise the process group's timeout= or move the work off the path the others wait on."),
        VLLM_BROADCAST,
        new Form(
            "didn't finish loading",
            "Here SGLang's rank finished loading the model and found other tensor-parallel ranks that had not: they died while loading (an out-of-memory kill of the host or the GPU) or are slow (a slow disk or network file system, another node).",
            "Read the other ranks' logs and dmesg for an out-of-memory kill or an error while loading; put the weights on a fast local disk of every node, or give loading more time."));
  }

  /** vLLM's broadcast queue waiting for a worker is printed while it waits: a warning alone. */
  @Override
  Severity severity(Job job, List<NcclWarning> hits) {
    return hits.stream().allMatch(VLLM_BROADCAST::saidBy) ? Severity.WARN : Severity.ERROR;
  }

  @Override
  String fix() {
    return "Read the named ranks' logs and stacks first (py-spy dump --pid PID on their hosts while it hangs; the flight recorder with TORCH_NCCL_TRACE_BUFFER_SIZE and TORCH_NCCL_DUMP_ON_TIMEOUT=1): a crash or an error there is the cause. If they are alive in other code, make every rank call the same collectives in the same order (no collective under a rank-dependent condition; drop_last or an equal number of batches per rank, e.g. DistributedSampler and Join for uneven inputs; the same parameters used on every rank for DDP, or find_unused_parameters).";
  }
}
