package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code invalid-argument}: NCCL's own argument checks refused a call ({@code sendbuff (nil) is not
 * a valid pointer}, {@code invalid root}, {@code invalid type}, {@code Invalid rank requested :
 * 2/2}): the caller passed something NCCL cannot use; or its usage checks refused one ({@code
 * ncclConfig_t argument not initialized}, {@code ncclGroupEnd: not in a group call}, {@code Trying
 * to send to self without a matching recv}).
 */
public final class InvalidArgument extends WarningRule {

  public InvalidArgument() {
    super(Severity.ERROR, NcclWarning.Kind.ARGUMENT);
  }

  @Override
  public String id() {
    return "invalid-argument";
  }

  @Override
  String title() {
    return "The program passed NCCL an invalid argument";
  }

  @Override
  String explanation() {
    return "NCCL checked the arguments of a call and refused it (ncclInvalidArgument): a buffer that is NULL or not device memory of this GPU, a root outside 0..nranks-1, an unknown data type or reduction, a buffer allocated on another device than the communicator's. Or a usage check (ncclInvalidUsage) refused the order or setup of calls: a config not made with NCCL_CONFIG_INITIALIZER or with invalid values, an invalid rank or device count at init, a communicator used after it was destroyed or before its non-blocking init finished, ncclGroupEnd without ncclGroupStart, blocking and non-blocking communicators in one group, a send to self without its receive, a custom reduction used with another type, FP8 reductions before sm90, CUDA graph capture NCCL cannot do. Nothing in the system or the network is wrong; the code calling NCCL (the framework, a library, the training script) passed it.";
  }

  /**
   * argcheck.cc prints the communicator's rank count as the top of the root's range ({@code
   * comm->nRanks}, not nRanks-1), so {@code 0..0} names a communicator with no ranks: its init had
   * not run when the call reached it.
   */
  private static final Form NOT_INITIALISED =
      new Form(
          w -> w.detail() instanceof NcclWarning.Detail.InvalidRoot r && r.top() == 0,
          "`invalid root R (root should be in the 0..0 range)` is NCCL's root check printing the"
              + " communicator's rank count (argcheck.cc prints comm->nRanks there), and it is 0: the"
              + " call reached a communicator whose init had not run yet (or that was destroyed), not"
              + " a wrong root. From NCCL 2.5 on, a ncclCommInitRank called between ncclGroupStart and"
              + " ncclGroupEnd runs only at ncclGroupEnd, so a collective queued in the same group finds"
              + " the communicator empty; PyTorch 1.3's DataParallel (torch.cuda.nccl's reduce and"
              + " broadcast) did exactly that and fails on NCCL 2.5 and later with this line and 'NCCL"
              + " Error 4: invalid argument' (NVIDIA/nccl#276: combining init with collectives in one"
              + " group call was never supported and worked before by luck; the fix is"
              + " pytorch/pytorch#29014). Threads that use a communicator before the thread creating it"
              + " returned from its init get the same line.",
          "With PyTorch 1.3 or older: a PyTorch release with pytorch/pytorch#29014 (newer than"
              + " 1.3.1), or the NCCL 2.4 it was built with (a system NCCL 2.5 or later loaded in its"
              + " place is what breaks it: the version line the log prints says which). In your own"
              + " code: end the group of ncclCommInitRank calls (or call them outside any group) before"
              + " queuing collectives on the communicators, and hand a communicator to other threads"
              + " only after its init returned.");

  /**
   * argcheck.cc's CommCheck/PtrCheck ({@code %s : %s argument is NULL}) with the communicator as
   * the argument: the call had no communicator at all.
   */
  private static final Form NO_COMMUNICATOR =
      new Form(
          w -> w.detail() instanceof NcclWarning.Detail.NullArgument a && a.communicator(),
          "`NAME : comm argument is NULL` is NCCL's check of the communicator handle (argcheck.cc's"
              + " PtrCheck(comm, NAME, \"comm\") at the top of every NCCL 2 call's check): the program called"
              + " NCCL (NAME is the call) with a NULL communicator, so no communicator existed in"
              + " this process: none was created (no distributed init ran, such as a single-process"
              + " run of a library or extension built with NCCL support), or the program went on"
              + " after ncclCommInitRank failed. No tensor or buffer argument is at fault.",
          "Create the communicator before the first NCCL call: initialise the process group (for"
              + " PyTorch, torch.distributed.init_process_group with the launcher's RANK and"
              + " WORLD_SIZE) before the layer or library that calls NCCL runs; for a single-GPU run,"
              + " use the library's path without NCCL (many build flags it in, such as USE_NCCL=0) or"
              + " its non-distributed mode. If an init ran, look for its failure earlier in the log.");

  /**
   * NCCL's commPoison (init.cc, on freeing a communicator) sets its rank, device and rank count to
   * -1, which argcheck.cc's root check then prints as {@code 0..-1}.
   */
  private static final Form FREED =
      new Form(
          w -> w.detail() instanceof NcclWarning.Detail.InvalidRoot r && r.top() == -1,
          "`invalid root R (root should be in the 0..-1 range)` is NCCL's root check printing the"
              + " communicator's rank count (comm->nRanks), and it is -1: NCCL sets the rank, device"
              + " and rank count of a communicator it frees to -1 (init.cc's commPoison), which its"
              + " `comm ... rank -1 nranks -1 cudaDev -1 ... Abort COMPLETE` line shows too. The call"
              + " reached a communicator that was already torn down: its init failed, or it was"
              + " aborted or destroyed after an earlier error. The root is not the fault; the earlier"
              + " failure is.",
          "Find the first error of this rank (its communicator's init, such as `ncclCommInitRank"
              + " failed`, or the error that made the framework abort it) and fix that; the collective"
              + " on the torn-down communicator only follows it. Where init fails on every rank with"
              + " the same NCCL release, try another release (NCCL_DEBUG=VERSION prints it) and"
              + " rebuild the framework against it.");

  /** CUDA 900 (cudaErrorStreamCaptureUnsupported): a call graph capture forbids ran inside one. */
  private static final Form CAPTURE =
      new Form(
          List.of("not permitted when stream is capturing", "cudaerrorstreamcaptureunsupported"),
          "`operation not permitted when stream is capturing` is CUDA's refusal (cudaErrorStreamCaptureUnsupported, 900) of a call that graph capture does not allow, made while a stream was being captured into a CUDA graph: a synchronisation (cudaStreamSynchronize, a .item() or .cpu() that waits, a blocking NCCL call), a cudaMalloc outside the caching allocator's graph pool or on another GPU than the captured stream's, or a communicator's lazy init, all inside torch.cuda.graph, torch.compile(mode=\"reduce-overhead\") or an inference engine's CUDA graph capture (vLLM, SGLang, TensorRT-LLM). Around NCCL it is most often the first collective of a process group captured before the communicator existed (PyTorch creates it lazily at the first collective), or a collective on a stream NCCL cannot capture on with its release.",
          "Warm up before capturing: run each captured step once eagerly (and the collectives of every process group, or pass device_id to init_process_group so the communicator is created at once), keep synchronisations, .item() and host copies out of the captured region; in an inference engine, run once with CUDA graphs off (vLLM --enforce-eager, SGLang --disable-cuda-graph) to confirm, then update the engine or fix the custom op that synchronises.");

  @Override
  String title(List<NcclWarning> hits) {
    if (hits.stream().allMatch(CAPTURE::saidBy)) {
      return "A call CUDA graph capture does not allow ran while a stream was capturing";
    }
    return hits.stream().anyMatch(NOT_INITIALISED::saidBy)
        ? "A collective reached a communicator NCCL had not initialised"
        : hits.stream().anyMatch(FREED::saidBy)
            ? "A collective reached a communicator NCCL had already torn down (its rank count is -1)"
            : hits.stream().allMatch(NO_COMMUNICATOR::saidBy)
                ? "NCCL was called without a communicator (comm argument is NULL)"
                : title();
  }

  @Override
  String explanation(List<NcclWarning> hits) {
    // the generic list of bad arguments would blame what these lines clear
    if (hits.stream().allMatch(CAPTURE::saidBy)) {
      return "The calling code used CUDA graph capture in a way CUDA refuses; nothing in the system or"
          + " the network is wrong.";
    }
    return hits.stream().allMatch(w -> NO_COMMUNICATOR.saidBy(w) || FREED.saidBy(w))
        ? "NCCL's argument checks refused the calls shown."
        : explanation();
  }

  @Override
  List<Form> forms() {
    return List.of(
        NOT_INITIALISED,
        FREED,
        NO_COMMUNICATOR,
        CAPTURE,
        new Form(
            "invalid rank requested",
            "`Invalid rank requested : R/N` says a process asked to be rank R of a communicator of N ranks (ranks run 0..N-1): the ranks and the world size the launcher gave the workers disagree, for instance more processes started than WORLD_SIZE counts, or a node rank or process-per-node count that differs between workers.",
            "Print RANK, LOCAL_RANK and WORLD_SIZE on every worker: WORLD_SIZE must count every process (nodes × processes per node) and each RANK must lie in 0..WORLD_SIZE-1, unique; with torchrun give every node the same --nnodes and --nproc_per_node and node ranks 0..nnodes-1; in a Kubernetes or Azure ML job, make the replica count match the node count the launcher is told."));
  }

  @Override
  String fix() {
    return "Find the call NCCL names (Broadcast, AllReduce...) and the argument it quotes: make sure every rank passes a CUDA tensor on its own device (not None, not on the CPU, not on another GPU), a valid root and a supported dtype; NCCL_CHECK_POINTERS=1 checks every pointer (slower).";
  }
}
