package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.CollectiveTimeout;
import io.topolens.model.Communicator;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
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
    if (all.isEmpty()) {
      return List.of();
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
            sample.timeoutMs() > 0 ? ", timeout " + Facts.seconds(sample.timeoutMs() / 1000.0) : "")
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
    if (!elsewhere.isEmpty()) {
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
    List<Evidence> evidence = new ArrayList<>();
    all.stream()
        .sorted(Comparator.comparingLong(CollectiveTimeout::seq))
        .forEach(
            t -> {
              if (evidence.size() < Finding.MAX_EVIDENCE && !evidence.contains(t.evidence())) {
                evidence.add(t.evidence());
              }
            });
    return List.of(
        new Finding(
            id(),
            Severity.ERROR,
            (desync ? "Ranks ran different collectives at call #" : "Collective call #")
                + first
                + " ("
                + String.join(" / ", byOp.keySet())
                + (desync
                    ? ") and timed out"
                    : ") timed out waiting for ranks that never reached it"),
            why.toString(),
            evidence,
            "Find what the ranks that did not reach call #"
                + first
                + " were doing: their last log lines, a stack dump (py-spy dump --pid), PyTorch's flight recorder"
                + " (TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1). Usual causes: a collective"
                + " under a rank-dependent branch (if rank == 0), uneven data (one rank gets one more batch), a rank"
                + " that crashed or ran out of memory, slow I/O or checkpointing on one rank. If NCCL itself hangs,"
                + " NCCL_DEBUG=INFO shows where. Raise the timeout (init_process_group(timeout=...)) only when a"
                + " rank legitimately works that long between collectives."));
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
