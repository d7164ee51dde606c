package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.CollectiveTimeout;
import io.topolens.model.Communicator;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.WatchdogReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code collective-timeout}: PyTorch's watchdog timed out a collective. Names the first stuck call
 * (its sequence number, operation and size), the ranks that reached it and waited, those that
 * reported another call or another operation at the same number, and the ranks that did not report.
 */
public final class CollectiveTimeoutRule implements Rule {

  @Override
  public String id() {
    return "collective-timeout";
  }

  @Override
  public List<Finding> check(Job job) {
    List<CollectiveTimeout> all = job.timeouts();
    List<WatchdogReport> reports = job.watchdog();
    if (all.isEmpty()) {
      return reportsOnly(reports);
    }
    long first = all.stream().mapToLong(CollectiveTimeout::seq).min().orElseThrow();
    List<CollectiveTimeout> atFirst = all.stream().filter(t -> t.seq() == first).toList();
    Map<String, TreeSet<Integer>> byOp = new LinkedHashMap<>();
    for (CollectiveTimeout t : atFirst) {
      byOp.computeIfAbsent(t.op(), k -> new TreeSet<>()).add(t.rank());
    }
    CollectiveTimeout sample = atFirst.get(0);
    TreeSet<Integer> reached = new TreeSet<>();
    atFirst.forEach(t -> reached.add(t.rank()));
    TreeSet<Integer> elsewhere = new TreeSet<>();
    all.stream().filter(t -> t.seq() != first).forEach(t -> elsewhere.add(t.rank()));
    elsewhere.removeAll(reached);
    StringBuilder why = new StringBuilder();
    why.append("PyTorch's NCCL watchdog gave up on collective call #")
        .append(first)
        .append(" (")
        .append(String.join(" / ", byOp.keySet()))
        .append(size(sample))
        .append(
            sample.timeoutMs() > 0 ? ", timeout " + TimeoutContext.shown(sample.timeoutMs()) : "")
        .append("). ");
    why.append(reached.contains(-1) ? "Ranks" : "Rank(s) ")
        .append(reached.contains(-1) ? " (unnamed)" : Facts.list(List.copyOf(reached), 16))
        .append(
            " reached it and waited: a collective completes only when every rank of the process")
        .append(" group enters it, so the cause is on a rank that did not.");
    boolean desync = byOp.size() > 1;
    if (desync) {
      why.append(" At the same call number the ranks ran different operations (");
      List<String> parts = new ArrayList<>();
      byOp.forEach(
          (op, ranks) -> parts.add(op + " on rank(s) " + Facts.list(List.copyOf(ranks), 8)));
      why.append(String.join("; ", parts))
          .append("): the ranks are out of step — a collective was called on some ranks only.");
    }
    List<String> apart = diverged(all);
    if (!apart.isEmpty()) {
      why.append(" The ranks wait in different collectives (")
          .append(String.join("; ", apart))
          .append(
              "): each rank's calls are numbered in order, so ranks blocked in different operations"
                  + " at different numbers have run different sequences of collectives. They"
                  + " diverged: a code path only some ranks took (a collective under a rank-dependent"
                  + " branch, uneven data, an exception caught on one rank), or a deadlock between"
                  + " ranks, such as NCCL calls captured in CUDA graphs: NCCL requires every rank"
                  + " of a communicator to capture (or not capture) the same calls and replay the"
                  + " same graph, and its documentation (Using NCCL with CUDA Graphs) reports CUDA"
                  + " deadlocks when graphs of several communicators are launched from one thread"
                  + " while captured and uncaptured calls are mixed. If these ranks belong"
                  + " to different process groups, each group numbers its own calls: compare ranks"
                  + " of one group.");
    } else if (!elsewhere.isEmpty()) {
      why.append(" Rank(s) ")
          .append(Facts.list(List.copyOf(elsewhere), 16))
          .append(" timed out at other calls (")
          .append(
              Facts.list(
                  all.stream()
                      .filter(t -> t.seq() != first)
                      .map(t -> "#" + t.seq() + " " + t.op())
                      .distinct()
                      .toList(),
                  4))
          .append(").");
    }
    int world = worldSize(job, all);
    if (world > 0) {
      TreeSet<Integer> silent = new TreeSet<>();
      for (int r = 0; r < world; r++) {
        if (!reached.contains(r) && !elsewhere.contains(r)) {
          silent.add(r);
        }
      }
      if (!silent.isEmpty()) {
        why.append(" Rank(s) ")
            .append(Facts.list(List.copyOf(silent), 16))
            .append(" of ")
            .append(world)
            .append(
                " reported no timeout: they did not reach call #"
                    + first
                    + " (stuck or crashed before it, or on another code path), or their logs are missing.");
      }
    }
    boolean firstCall = first == 1 && !desync && apart.isEmpty();
    boolean allArrived = false;
    if (firstCall) {
      allArrived = world > 0 && reached.size() >= world && !reached.contains(-1);
      why.append(TimeoutContext.firstCollective(allArrived));
    }
    long timeoutMs = sample.timeoutMs();
    why.append(TimeoutContext.shortTimeout(timeoutMs));
    progress(why, reports);
    List<Evidence> evidence = new ArrayList<>();
    all.stream()
        .sorted(Comparator.comparingLong(CollectiveTimeout::seq))
        .forEach(
            t -> {
              if (evidence.size() < Finding.MAX_EVIDENCE && !evidence.contains(t.evidence())) {
                evidence.add(t.evidence());
              }
            });
    cite(evidence, reports);
    return List.of(
        new Finding(
            id(),
            Severity.ERROR,
            !apart.isEmpty()
                ? "Ranks timed out in different collectives: " + Facts.list(apart, 4)
                : TimeoutContext.setShort(timeoutMs)
                    ? "Collective call #"
                        + first
                        + " ("
                        + String.join(" / ", byOp.keySet())
                        + (firstCall ? ", the first" : "")
                        + ") hit the job's own short timeout of "
                        + TimeoutContext.shown(timeoutMs)
                    : firstCall
                        ? "The first collective (#1, "
                            + String.join(" / ", byOp.keySet())
                            + ") timed out: "
                            + (allArrived
                                ? "every rank arrived, so NCCL's first transfer never completed"
                                : "a rank that never arrived, or NCCL's first transfer that"
                                    + " never completed")
                        : (desync
                                ? "Ranks ran different collectives at call #"
                                : "Collective call #")
                            + first
                            + " ("
                            + String.join(" / ", byOp.keySet())
                            + (desync
                                ? ") and timed out"
                                : ") timed out waiting for ranks that never reached it"),
            why.toString(),
            evidence,
            apart.isEmpty()
                ? TimeoutContext.shortTimeoutFix(timeoutMs)
                    + (firstCall ? TimeoutContext.firstCollectiveFix() : "")
                    + fix("the ranks that did not reach call #" + first)
                : DIVERGED_FIX + fix("each rank")));
  }

  private static final String DIVERGED_FIX =
      "Find where the ranks' sequences of collectives part: TORCH_NCCL_DESYNC_DEBUG=1 makes the"
          + " watchdog name the ranks that lag and the collective each is in, and the flight"
          + " recorder's dumps (TORCH_NCCL_TRACE_BUFFER_SIZE, TORCH_NCCL_DUMP_ON_TIMEOUT=1) list"
          + " every rank's last collectives. Where collectives are captured in CUDA graphs (vLLM,"
          + " SGLang, torch.compile's cudagraphs), run eagerly to confirm (vLLM: enforce_eager=True"
          + " or --enforce-eager); where the program never mixes captured and uncaptured calls on one"
          + " communicator, NCCL_GRAPH_MIXING_SUPPORT=0 turns off the mechanism"
          + " behind those deadlocks. ";

  /**
   * Each named rank's timed-out calls ({@code rank 4 in #20518 ALLREDUCE}) when two ranks timed out
   * in different operations at different call numbers (neither rank's operations among the
   * other's); empty otherwise (the same operation at other numbers may be another process group's
   * count).
   */
  private static List<String> diverged(List<CollectiveTimeout> all) {
    Map<Integer, List<CollectiveTimeout>> byRank = new java.util.TreeMap<>();
    for (CollectiveTimeout t : all) {
      if (t.rank() >= 0) {
        byRank.computeIfAbsent(t.rank(), k -> new ArrayList<>()).add(t);
      }
    }
    boolean apart = false;
    for (List<CollectiveTimeout> a : byRank.values()) {
      for (List<CollectiveTimeout> b : byRank.values()) {
        apart |=
            a.stream().noneMatch(x -> b.stream().anyMatch(y -> y.op().equals(x.op())))
                && a.stream().noneMatch(x -> b.stream().anyMatch(y -> y.seq() == x.seq()));
      }
    }
    if (!apart) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    byRank.forEach(
        (rank, ts) ->
            out.add(
                "rank "
                    + rank
                    + " in "
                    + Facts.list(
                        ts.stream()
                            .sorted(Comparator.comparingLong(CollectiveTimeout::seq))
                            .map(t -> "#" + t.seq() + " " + t.op())
                            .distinct()
                            .toList(),
                        3)));
    return out;
  }

  private static String fix(String whom) {
    return "Find what "
        + whom
        + " were doing: their last log lines, a stack dump (py-spy dump --pid), PyTorch's flight recorder"
        + " (TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1). Usual causes: a collective"
        + " under a rank-dependent branch (if rank == 0), uneven data (one rank gets one more batch), a rank"
        + " that crashed or ran out of memory, slow I/O or checkpointing on one rank. If NCCL itself hangs,"
        + " NCCL_DEBUG=INFO shows where. Raise the timeout (init_process_group(timeout=...)) only when a"
        + " rank legitimately works that long between collectives.";
  }

  /**
   * The finding when the watchdog's {@code WorkNCCL} line is missing but its other lines say a
   * collective timed out ({@code Timeout at NCCL work: N}, a dump signal, the stack frame of {@code
   * WorkNCCL::checkTimeout}); none for the consequence line alone, which says neither that a call
   * timed out nor which.
   */
  private List<Finding> reportsOnly(List<WatchdogReport> reports) {
    List<WatchdogReport> timedOut =
        reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.TIMEOUT_AT).toList();
    List<WatchdogReport> signals =
        reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.DUMP_SIGNAL).toList();
    List<WatchdogReport> frames =
        reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.TIMEOUT_FRAME).toList();
    List<WatchdogReport> headers =
        reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.TIMEOUT_HEADER).toList();
    List<WatchdogReport> unnumbered =
        reports.stream().filter(r -> r.kind() == WatchdogReport.Kind.TIMEOUT_UNNUMBERED).toList();
    if (timedOut.isEmpty()
        && signals.isEmpty()
        && frames.isEmpty()
        && headers.isEmpty()
        && unnumbered.isEmpty()) {
      return List.of();
    }
    StringBuilder why = new StringBuilder();
    String title;
    String whom;
    String shortFix = "";
    if (!timedOut.isEmpty()) {
      long first = timedOut.stream().mapToLong(WatchdogReport::seq).min().orElseThrow();
      title = "Collective call #" + first + " timed out waiting for ranks that never reached it";
      whom = "the ranks that did not reach call #" + first;
      why.append("PyTorch's NCCL watchdog gave up on collective call #")
          .append(first)
          .append(
              " (its WorkNCCL line, which names the operation, is not in the input). A collective"
                  + " completes only when every rank of the process group enters it, so the cause is"
                  + " on a rank that did not.");
    } else if (signals.isEmpty() && !unnumbered.isEmpty()) {
      TreeSet<Integer> ranks = new TreeSet<>();
      unnumbered.forEach(r -> ranks.add(r.rank()));
      ranks.remove(-1);
      title =
          "A collective timed out"
              + (ranks.isEmpty() ? "" : " on rank(s) " + Facts.list(List.copyOf(ranks), 8))
              + " (PyTorch 1.8-1.9, which numbers no calls)";
      whom = "the ranks this rank waited for";
      why.append(
          "PyTorch's NCCL watchdog gave up on a collective: its line (\"Watchdog caught collective"
              + " operation timeout: WorkNCCL(OpType=..., Timeout(ms)=...)\", or \"Caught"
              + " collective operation timeout\" of a blocking wait) is PyTorch 1.8-1.9's, which"
              + " gives the operation but no call number (SeqNum came in 1.10), so ranks that timed"
              + " out in different calls cannot be told apart. A collective completes only when"
              + " every rank of the process group enters it, so the cause is on a rank that did"
              + " not.");
      long timeoutMs = unnumbered.stream().mapToLong(WatchdogReport::timeoutMs).max().orElse(-1);
      if (TimeoutContext.setShort(timeoutMs)) {
        title =
            "A collective timed out"
                + (ranks.isEmpty() ? "" : " on rank(s) " + Facts.list(List.copyOf(ranks), 8))
                + " at the job's own short timeout of "
                + TimeoutContext.shown(timeoutMs);
        why.append(TimeoutContext.shortTimeout(timeoutMs));
        shortFix = TimeoutContext.shortTimeoutFix(timeoutMs);
      }
    } else if (signals.isEmpty() && !headers.isEmpty()) {
      title = "A collective timed out (PyTorch's watchdog line, cut before its WorkNCCL fields)";
      whom = "the ranks this rank waited for";
      why.append(
          "The input holds PyTorch's NCCL watchdog line \"Watchdog caught collective operation"
              + " timeout:\" without the WorkNCCL(SeqNum=..., OpType=...) fields that follow it on"
              + " the same line in PyTorch's output (a terminal or an editor wrapped it, or it was"
              + " retyped), so which call, operation and ranks timed out are not read. A collective"
              + " completes only when every rank of the process group enters it, so the cause is on"
              + " a rank that did not: the full log of each rank shows which.");
    } else if (signals.isEmpty()) {
      title = "A collective timed out (PyTorch's watchdog stack trace; which call is not shown)";
      whom = "the ranks this rank waited for";
      why.append(
          "The input holds the stack trace of the exception that PyTorch's NCCL watchdog builds in"
              + " ProcessGroupNCCL::WorkNCCL::checkTimeout, which it builds only when a collective"
              + " ran past its timeout (init_process_group(timeout=...)). The watchdog's \"Watchdog caught collective operation timeout:"
              + " WorkNCCL(...)\" line, which names the call, its operation and the rank, is not in"
              + " the input, so which collective and which ranks are not known. A collective"
              + " completes only when every rank of the process group enters it, so the cause is on"
              + " a rank that did not: the full log of each rank shows which.");
    } else {
      TreeSet<Integer> from = new TreeSet<>();
      signals.forEach(r -> from.add(r.fromRank()));
      boolean named = !from.contains(-1);
      title =
          named
              ? "A collective timed out on rank(s) " + Facts.list(List.copyOf(from), 8)
              : "A collective timed out (PyTorch's dump signal)";
      whom =
          "the ranks that rank(s) "
              + (named ? Facts.list(List.copyOf(from), 8) : "?")
              + " waited for";
      why.append(
          "PyTorch's NCCL watchdog timed out a collective and signalled every rank to dump its debug"
              + " info (TORCH_NCCL_DUMP_ON_TIMEOUT); the WorkNCCL line that names the call is not in the"
              + " input.");
    }
    progress(why, reports);
    List<Evidence> evidence = new ArrayList<>();
    cite(evidence, reports);
    return List.of(
        new Finding(id(), Severity.ERROR, title, why.toString(), evidence, shortFix + fix(whom)));
  }

  /**
   * What the watchdog's other lines add: where each rank stood (last enqueued and completed call),
   * and which rank timed out first when a dump signal names another.
   */
  private static void progress(StringBuilder why, List<WatchdogReport> reports) {
    TreeSet<Integer> origins = new TreeSet<>();
    TreeSet<Integer> told = new TreeSet<>();
    for (WatchdogReport r : reports) {
      if (r.fromOtherRank()) {
        origins.add(r.fromRank());
        if (r.rank() >= 0) {
          told.add(r.rank());
        }
      }
    }
    if (!origins.isEmpty()) {
      why.append(" Rank(s) ")
          .append(Facts.list(List.copyOf(origins), 8))
          .append(" timed out first and sent the dump signal")
          .append(
              told.isEmpty()
                  ? ""
                  : " that rank(s) " + Facts.list(List.copyOf(told), 16) + " received")
          .append(
              ": the ranks that received it only obey it, so start from the call rank(s) "
                  + Facts.list(List.copyOf(origins), 8)
                  + " waited in.");
    }
    List<String> stood = new ArrayList<>();
    for (WatchdogReport r : reports) {
      if (r.kind() == WatchdogReport.Kind.DATA_UNSAFE || r.lastEnqueued() < 0) {
        continue;
      }
      String who = r.rank() >= 0 ? "rank " + r.rank() : "a rank";
      String at = r.seq() >= 0 ? " timed out at call #" + r.seq() + "," : "";
      // torch 2.3 printed an uninitialised last completed call (3452013982 after 1 enqueued)
      boolean completedKnown = r.lastCompleted() >= -1 && r.lastCompleted() <= r.lastEnqueued();
      String s =
          who
              + at
              + " last enqueued #"
              + r.lastEnqueued()
              + (completedKnown
                  ? r.lastCompleted() < 0
                      ? ", none completed"
                      : ", last completed #" + r.lastCompleted()
                  : "");
      if (stood.size() < 6 && !stood.contains(s)) {
        stood.add(s);
      }
    }
    if (!stood.isEmpty()) {
      why.append(" Where the ranks stood: ").append(String.join("; ", stood)).append('.');
    }
    if (reports.stream().anyMatch(r -> r.kind() == WatchdogReport.Kind.DATA_UNSAFE)) {
      why.append(
          " The watchdog then took the process down (\"Some NCCL operations have failed or timed"
              + " out ... corrupted/incomplete data\"): a consequence of this timeout, not another"
              + " failure.");
    }
  }

  /** Adds the watchdog's other lines to the evidence, dump signals and progress first. */
  private static void cite(List<Evidence> evidence, List<WatchdogReport> reports) {
    for (WatchdogReport.Kind kind : WatchdogReport.Kind.values()) {
      for (WatchdogReport r : reports) {
        if (r.kind() == kind
            && evidence.size() < Finding.MAX_EVIDENCE
            && !evidence.contains(r.evidence())) {
          evidence.add(r.evidence());
        }
      }
    }
  }

  private static String size(CollectiveTimeout t) {
    if (t.numelIn() < 0) {
      return "";
    }
    return ", "
        + t.numelIn()
        + " elements in"
        + (t.numelOut() >= 0 && t.numelOut() != t.numelIn() ? ", " + t.numelOut() + " out" : "");
  }

  /**
   * Ranks in the process group: the size of the largest communicator when NCCL's lines are read,
   * else unknown (-1).
   */
  private static int worldSize(Job job, List<CollectiveTimeout> all) {
    int largest = job.communicators().stream().mapToInt(Communicator::nRanks).max().orElse(-1);
    int highest = all.stream().mapToInt(CollectiveTimeout::rank).max().orElse(-1);
    return largest > highest ? largest : -1;
  }
}
