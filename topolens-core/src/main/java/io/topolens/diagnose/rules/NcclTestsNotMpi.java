package io.topolens.diagnose.rules;

import io.topolens.bench.BenchDevice;
import io.topolens.bench.BenchRun;
import io.topolens.bench.Collective;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.LaunchCommand;
import io.topolens.verdict.BenchVerdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code nccl-tests-not-mpi}: nccl-tests built without MPI and started by mpirun. Such a binary
 * never calls MPI_Init (src/common.cu reads the process count from MPI only under {@code
 * MPI_SUPPORT}, which the Makefile's {@code MPI=1} defines), so each of mpirun's processes is a
 * test of its own: it prints its own header, lists only its own GPUs as ranks 0..g-1 and prints its
 * own summary. A build with MPI prints one header listing every rank of every host, one table and
 * one summary (rank 0 prints). Signs, after one mpirun that starts more than one process, in one
 * file: more than one run of one test (two {@code # Avg bus bandwidth} summaries, two headers, a
 * device list that starts again at rank 0), and no run whose ranks outnumber its own process's GPUs
 * ({@code nThread} x {@code nGpus}) or span hosts without repeating a rank, which a joined job
 * shows. Runs of different collectives, or after a second launch command, are tests run on purpose.
 */
public final class NcclTestsNotMpi extends BesideRule {

  @Override
  public String id() {
    return "nccl-tests-not-mpi";
  }

  @Override
  public List<Finding> check(Observed observed) {
    Map<String, List<BenchRun>> byFile = new LinkedHashMap<>();
    for (BenchVerdict v : observed.benches()) {
      byFile.computeIfAbsent(v.run().file(), f -> new ArrayList<>()).add(v.run());
    }
    List<Finding> out = new ArrayList<>();
    for (Map.Entry<String, List<BenchRun>> e : byFile.entrySet()) {
      List<LaunchCommand> launches =
          observed.job().launches().stream()
              .filter(l -> l.evidence().file().equals(e.getKey()))
              .sorted(Comparator.comparingLong(l -> l.evidence().line()))
              .toList();
      for (int i = 0; i < launches.size(); i++) {
        LaunchCommand l = launches.get(i);
        long from = l.evidence().line();
        long to = i + 1 < launches.size() ? launches.get(i + 1).evidence().line() : Long.MAX_VALUE;
        List<BenchRun> runs =
            e.getValue().stream()
                .filter(r -> r.start().line() > from && r.start().line() < to)
                .toList();
        if (l.processCount() > 1
            && runs.size() > 1
            && oneTest(runs)
            && runs.stream().noneMatch(NcclTestsNotMpi::joined)) {
          out.add(finding(l, runs));
          break;
        }
      }
    }
    return out;
  }

  /** Whether the runs are one test: no two collectives named, none with other parameters. */
  private static boolean oneTest(List<BenchRun> runs) {
    Set<Collective> named = new HashSet<>();
    Set<Map<String, String>> params = new HashSet<>();
    for (BenchRun r : runs) {
      if (r.collective() != null) {
        named.add(r.collective());
      }
      if (!r.parameters().isEmpty()) {
        params.add(r.parameters());
      }
    }
    return named.size() <= 1 && params.size() <= 1;
  }

  /**
   * Whether the run shows a job that joined: ranks beyond its own process's GPUs ({@code nThread} x
   * {@code nGpus}), or devices on several hosts none of whose rank numbers repeats.
   */
  private static boolean joined(BenchRun r) {
    int local = r.gpusPerProcess();
    if (local > 0 && r.nranks() > local) {
      return true;
    }
    Set<String> hosts = new HashSet<>();
    Set<Integer> ranks = new HashSet<>();
    for (BenchDevice d : r.devices()) {
      hosts.add(d.host());
      ranks.add(d.rank());
    }
    return hosts.size() > 1 && ranks.size() == r.devices().size();
  }

  /** Rank numbers that two devices of the runs list (each process counting from 0), in order. */
  private static List<Evidence> repeatedRanks(List<BenchRun> runs) {
    Map<Integer, BenchDevice> first = new HashMap<>();
    List<Evidence> repeated = new ArrayList<>();
    for (BenchRun r : runs) {
      for (BenchDevice d : r.devices()) {
        BenchDevice before = first.putIfAbsent(d.rank(), d);
        if (before != null && repeated.size() < 4) {
          repeated.add(before.evidence());
          repeated.add(d.evidence());
        }
      }
    }
    return repeated.stream().distinct().toList();
  }

  private static Finding finding(LaunchCommand l, List<BenchRun> runs) {
    List<Evidence> repeated = repeatedRanks(runs);
    Map<Long, Evidence> lines = new LinkedHashMap<>();
    lines.put(l.evidence().line(), l.evidence());
    runs.stream().limit(4).map(BenchRun::start).forEach(e -> lines.putIfAbsent(e.line(), e));
    runs.stream()
        .limit(4)
        .map(BenchRun::end)
        .filter(Objects::nonNull)
        .forEach(e -> lines.putIfAbsent(e.line(), e));
    repeated.forEach(e -> lines.putIfAbsent(e.line(), e));
    List<Evidence> evidence =
        lines.values().stream().sorted(Comparator.comparingLong(Evidence::line)).toList();
    int hosts = (int) l.slots().stream().distinct().count();
    String where =
        hosts > 1
            ? " on "
                + hosts
                + " hosts ("
                + String.join(", ", l.slots().stream().distinct().toList())
                + ")"
            : "";
    return new Finding(
        "nccl-tests-not-mpi",
        repeated.isEmpty() ? Severity.WARN : Severity.ERROR,
        "nccl-tests ran as " + runs.size() + " separate tests under one mpirun: built without MPI?",
        "mpirun started "
            + l.processCount()
            + " processes"
            + where
            + " (line "
            + l.evidence().line()
            + "), and the output holds "
            + runs.size()
            + " runs of one test (lines "
            + String.join(
                ", ", runs.stream().limit(8).map(r -> String.valueOf(r.start().line())).toList())
            + ")"
            + (repeated.isEmpty()
                ? ""
                : ", each listing its own GPUs from rank 0 (a rank number listed twice)")
            + ", where one job prints one header listing every rank of every host and one"
            + " summary. nccl-tests built without MPI (make without MPI=1, or a build left from"
            + " before it: make does not rebuild objects when only MPI=1 changes) never joins"
            + " mpirun's processes: each runs a test of its own on its own GPUs, so the bandwidth"
            + " printed is one node's, not the network's (nccl-tests issue 27, where make clean"
            + " and a rebuild with MPI=1 fixed it). A binary built against another MPI than the"
            + " mpirun that starts it does the same (nccl-tests issue 213).",
        evidence,
        "Rebuild nccl-tests with MPI, the MPI whose mpirun launches it: make clean; make MPI=1"
            + " MPI_HOME=/path/to/mpi CUDA_HOME=/path/to/cuda NCCL_HOME=/path/to/nccl. Check the"
            + " binary: ldd"
            + " build/all_reduce_perf | grep mpi lists libmpi; the rerun prints one header with a"
            + " Rank line for every GPU of every host and one summary.");
  }
}
