package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.StackFrame;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code stuck-in-nccl}: a stack dump of a process (py-spy, gdb, PyTorch's C++ trace) holds frames
 * of NCCL's code: where NCCL waited when the dump was taken. Names the place from the frames, the
 * deepest of these first: communicator init (its bootstrap and transport setup, {@code
 * ncclCommInitRank*}, group.cc's {@code ncclAsync*} threads that run them), a kernel launch ({@code
 * ncclLaunchKernel*}, {@code doLaunches}, {@code ncclStrongStreamLaunchKernel}), a communicator's
 * teardown ({@code ncclCommAbort}, {@code ncclCommDestroy}), the enqueue of a call ({@code
 * ncclGroupEnd}, {@code ncclAllReduce}...), or only NCCL's background threads (the proxy, {@code
 * ncclProxyProgress}, {@code persistentThread}; the IB async thread, {@code
 * wrap_ibv_get_async_event}), which wait in every dump. A warning: a dump is one moment, and a
 * process that waits there may wait for a peer that hung elsewhere.
 */
public final class StuckInNccl implements Rule {

  /** Where NCCL waits, by its frames; in the order a dump's place is chosen. */
  enum Place {
    LAUNCH("launching an NCCL kernel"),
    INIT("creating a communicator (ncclCommInitRank: bootstrap and transport setup)"),
    TEARDOWN("tearing a communicator down (ncclCommAbort / ncclCommDestroy)"),
    ENQUEUE("enqueuing an NCCL call"),
    BACKGROUND("NCCL's background threads only (the proxy, the network's threads)");

    final String words;

    Place(String words) {
      this.words = words;
    }
  }

  @Override
  public String id() {
    return "stuck-in-nccl";
  }

  /** The place a frame's function belongs to. */
  static Place place(String function) {
    if (function.startsWith("ncclLaunch")
        || function.startsWith("ncclStrongStreamLaunch")
        || function.equals("doLaunches")
        || function.equals("groupLaunch")) {
      return Place.LAUNCH;
    }
    // group.cc's async threads (ncclAsyncThreadMain before 2.12, ncclAsyncJobMain after) run a
    // group's communicator init and its transports' connection: setup, not a background thread
    if (function.startsWith("ncclCommInit")
        || function.startsWith("ncclAsync")
        || function.startsWith("ncclCommSplit")
        || function.startsWith("ncclTransport")
        || function.startsWith("bootstrap")
        || function.equals("initTransportsRank")) {
      return Place.INIT;
    }
    if (function.startsWith("ncclCommAbort")
        || function.startsWith("ncclCommDestroy")
        || function.startsWith("ncclCommFinalize")
        || function.equals("commReclaim")) {
      return Place.TEARDOWN;
    }
    if (function.startsWith("ncclProxy")
        || function.startsWith("ncclIb")
        || function.startsWith("ncclSocket")
        || function.startsWith("ncclNet")
        || function.startsWith("persistent")
        || function.startsWith("wrap_ibv_get_async_event")) {
      return Place.BACKGROUND;
    }
    return Place.ENQUEUE;
  }

  @Override
  public List<Finding> check(Job job) {
    List<StackFrame> frames = job.stackFrames();
    if (frames.isEmpty()) {
      return List.of();
    }
    Place place = Place.BACKGROUND;
    for (StackFrame f : frames) {
      Place p = place(f.function());
      if (p.ordinal() < place.ordinal()) {
        place = p;
      }
    }
    Set<String> functions = new LinkedHashSet<>();
    List<Evidence> evidence = new ArrayList<>();
    for (StackFrame f : frames) {
      if (functions.add(f.function()) && evidence.size() < 8) {
        evidence.add(f.evidence());
      }
    }
    boolean fifo = functions.contains("ncclLaunchKernelBefore_NoUncapturedCuda");
    return List.of(
        new Finding(
            id(),
            Severity.WARN,
            "A stack dump shows NCCL " + place.words,
            "The dump holds "
                + frames.size()
                + " frame(s) of NCCL's code ("
                + String.join(", ", functions.stream().limit(6).toList())
                + "): when it was taken, the process was "
                + place.words
                + ". "
                + why(place, fifo),
            evidence,
            fix(place)));
  }

  /** The known-bug catalog's entry for the work FIFO leak of NCCL 2.20-2.21 with CUDA graphs. */
  static final String FIFO_LEAK = "cuda-graph-work-fifo-leak-2.20";

  private static String why(Place place, boolean fifo) {
    return switch (place) {
      case LAUNCH ->
          (fifo
                  ? "ncclLaunchKernelBefore_NoUncapturedCuda waits (spinning in sched_yield) for"
                      + " room in the communicator's work FIFO, which the GPU frees only as earlier"
                      + " NCCL kernels finish: any release stops there when an earlier NCCL kernel"
                      + " never finishes because a peer did not join its collective, and NCCL"
                      + " 2.20-2.21 with CUDA graphs did by a known bug (the known-bug catalog's"
                      + " entry "
                      + FIFO_LEAK
                      + ": the finding known-nccl-bug says when it applies). "
                  : "A kernel launch that blocks waits on the GPU's queue: an earlier NCCL kernel"
                      + " that never finishes (a peer that did not join the collective), two"
                      + " communicators' kernels ordered differently by threads of one process"
                      + " (nccl issue 613), or CUDA_LAUNCH_BLOCKING=1, which deadlocks NCCL 2.13's"
                      + " launches (nccl issue 750). ")
              + "Compare with the other ranks' dumps: a rank elsewhere is the one to follow.";
      case INIT ->
          "Communicator init waits for every rank: in the bootstrap (the ranks exchange addresses"
              + " over TCP), then while connecting its transports. A rank that never called"
              + " init, an interface that does not route between the nodes, or a firewall leaves"
              + " the others here.";
      case TEARDOWN ->
          "Abort and destroy wait for the communicator's kernels and proxy to stop; a kernel"
              + " that never finishes (a peer gone, a hang before it) keeps them there, and some"
              + " releases hung in abort itself (ncclCommAbort with NCCL 2.25.1, fixed in 2.26.2:"
              + " pytorch issue 149153).";
      case ENQUEUE ->
          "The call is being enqueued (grouped, its work planned); a dump that stays here waits on"
              + " a lock or the GPU's queue.";
      case BACKGROUND ->
          "These threads wait in every NCCL process, hung or not: the dump does not show the"
              + " thread that called NCCL, so it says nothing of the hang by itself.";
    };
  }

  private static String fix(Place place) {
    String dump =
        "Take the dump on every rank (py-spy dump --native --pid PID, or gdb -p PID -batch -ex"
            + " 'thread apply all bt') and compare where each waits; NCCL_DEBUG=INFO shows how far"
            + " init and the collectives got. ";
    return dump
        + switch (place) {
          case LAUNCH ->
              "With CUDA graphs on NCCL 2.20-2.21: an NCCL of 2.22.3 or later (pip install -U"
                  + " nvidia-nccl-cu12, or LD_PRELOAD of a newer libnccl.so.2), or no CUDA graphs"
                  + " meanwhile (vLLM --enforce-eager, TGI's cuda graphs off); unset"
                  + " CUDA_LAUNCH_BLOCKING.";
          case INIT ->
              "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP,NET on every rank; NCCL_SOCKET_IFNAME"
                  + " on the interface that routes between the nodes; the same rank count and"
                  + " unique id on every process.";
          case TEARDOWN ->
              "Find why the communicator's kernels did not finish (the first rank that failed or"
                  + " hung); an NCCL release without the abort hang.";
          case ENQUEUE, BACKGROUND -> "The main thread's frames say where the call waits.";
        };
  }
}
