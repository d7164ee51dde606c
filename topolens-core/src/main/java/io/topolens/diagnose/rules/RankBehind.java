package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.CollectiveReached;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code rank-behind}: where NCCL printed each call (NCCL_DEBUG_SUBSYS=COLL) on two or more ranks
 * of one communicator, some ranks' last call has a higher opCount than others': the ranks ahead
 * called a collective that the ranks behind never called. A collective completes only when every
 * rank calls it, so the ranks ahead wait in it for the ranks behind: the hold-up is on the host of
 * the ranks behind, before NCCL. A warning: excerpts may end at different lines on different ranks.
 * Communicators with Send or Recv are left out: their ranks' opCounts differ by design.
 */
public final class RankBehind implements Rule {

  @Override
  public String id() {
    return "rank-behind";
  }

  @Override
  public List<Finding> check(Job job) {
    Map<String, List<CollectiveReached>> byComm = new LinkedHashMap<>();
    Set<String> ambiguous = new HashSet<>();
    Set<String> seen = new HashSet<>();
    for (CollectiveReached c : job.collectives()) {
      if (c.commKey() == null || c.rank() < 0) {
        continue;
      }
      // a key made of nranks alone names one communicator only where no process has two of it
      if (!seen.add(c.process() + " " + c.commKey())) {
        ambiguous.add(c.commKey());
      }
      byComm.computeIfAbsent(c.commKey(), k -> new ArrayList<>()).add(c);
    }
    List<Finding> out = new ArrayList<>();
    for (Map.Entry<String, List<CollectiveReached>> e : byComm.entrySet()) {
      List<CollectiveReached> calls = e.getValue();
      if (ambiguous.contains(e.getKey())
          || calls.size() < 2
          || calls.stream().anyMatch(CollectiveReached::pointToPoint)
          || calls.stream().map(CollectiveReached::rank).distinct().count() < calls.size()) {
        continue;
      }
      long ahead = calls.stream().mapToLong(CollectiveReached::opCount).max().orElseThrow();
      List<CollectiveReached> behind = calls.stream().filter(c -> c.opCount() < ahead).toList();
      if (behind.isEmpty()) {
        continue;
      }
      List<CollectiveReached> first = calls.stream().filter(c -> c.opCount() == ahead).toList();
      out.add(finding(e.getKey(), first, behind));
    }
    return out;
  }

  private Finding finding(
      String comm, List<CollectiveReached> ahead, List<CollectiveReached> behind) {
    CollectiveReached a = ahead.getFirst();
    String behindRanks = ranks(behind);
    List<Evidence> evidence = new ArrayList<>();
    behind.forEach(c -> evidence.add(c.last()));
    ahead.forEach(c -> evidence.add(c.last()));
    String lastBehind =
        Facts.list(
            behind.stream()
                .map(
                    c ->
                        "rank "
                            + c.rank()
                            + " ("
                            + c.process()
                            + ") "
                            + c.op()
                            + " opCount "
                            + hex(c.opCount()))
                .toList(),
            8);
    return new Finding(
        id(),
        Severity.WARN,
        (behind.size() == 1 ? "Rank " : "Ranks ")
            + behindRanks
            + " never called the collective "
            + (ahead.size() == 1 ? "rank " : "ranks ")
            + ranks(ahead)
            + " waited in",
        "NCCL prints each call when the host enqueues it (NCCL_DEBUG_SUBSYS=COLL), with the"
            + " communicator's running opCount, and a collective completes only when every rank of"
            + " the communicator calls it. On communicator "
            + comm
            + ", "
            + (ahead.size() == 1 ? "rank " : "ranks ")
            + ranks(ahead)
            + " last called "
            + a.op()
            + " opCount "
            + hex(a.opCount())
            + "; the last calls of the others are "
            + lastBehind
            + ": "
            + (behind.size() == 1 ? "that rank" : "those ranks")
            + " never reached the collective the others entered and waited in. The hold-up is on"
            + " the host side of "
            + (behind.size() == 1 ? "rank " : "ranks ")
            + behindRanks
            + ", before NCCL: a slow or stuck step there (a straggler GPU or process, data"
            + " loading, a host-side stall or deadlock), a code path that skips the collective on"
            + " that rank, or the process ended. If the job hung or ran slow, that is where to"
            + " look; if it ended normally, an excerpt may simply stop at different lines on"
            + " different ranks.",
        evidence,
        "Look at what "
            + (behind.size() == 1 ? "rank " : "ranks ")
            + behindRanks
            + " did after the last call: the own output and stack while it hangs (py-spy dump"
            + " --pid PID, PyTorch's flight recorder with TORCH_NCCL_TRACE_BUFFER_SIZE and"
            + " TORCH_NCCL_DUMP_ON_TIMEOUT=1), its step and data-loading times against the other"
            + " ranks', and its GPU (nvidia-smi -q -d PERFORMANCE,CLOCK for throttling, dmesg for"
            + " Xid errors); make sure every rank issues the same collectives in the same order (no"
            + " collective under a rank-dependent condition, equal batches per rank).");
  }

  private static String ranks(List<CollectiveReached> calls) {
    return Facts.list(calls.stream().map(CollectiveReached::rank).sorted().distinct().toList(), 8);
  }

  private static String hex(long n) {
    return "0x" + Long.toHexString(n);
  }
}
