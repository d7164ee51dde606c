package io.topolens.verdict;

import io.topolens.bench.BenchDevice;
import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import io.topolens.bench.Collective;
import io.topolens.catalog.GpuSpec;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.LaunchCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Judges an nccl-tests run: its peak busbw against the rate of the path it ran on (from NCCL's log
 * in the same input) and the best path its hardware offers (from topology and the catalog).
 */
public final class BenchJudge {
  /** Sweeps that stop below this size may not reach the bandwidth plateau. */
  static final long PLATEAU_BYTES = 256L << 20;

  /** Above this many times the rate, the number is not link bandwidth (NVLS, Tree, in-network). */
  static final double ABOVE_RATE = 1.05;

  private final Expectations expectations;

  public BenchJudge(Expectations expectations) {
    this.expectations = expectations;
  }

  /**
   * What is known beside the benchmark itself.
   *
   * @param hardware the GPU, instance type and NIC rate as far as known
   * @param log NCCL's log lines of the same run (may be empty)
   * @param topology what a topology input says about the node's GPUs, or null
   * @param launches the launch commands in the run's file ({@code mpirun -np 24 --hostfile ...})
   */
  public record Context(
      Hardware hardware, Job log, TopologyHint topology, List<LaunchCommand> launches) {
    public Context {
      launches = launches == null ? List.of() : List.copyOf(launches);
    }

    public Context(Hardware hardware, Job log, TopologyHint topology) {
      this(hardware, log, topology, List.of());
    }
  }

  /** The run's nodes cannot be told: its device list is cut and nothing else names them. */
  static final long NODES_UNKNOWN = -1;

  public BenchVerdict judge(BenchRun run, Context ctx) {
    Hardware hw = withGpuFromRun(ctx.hardware(), run);
    BenchRow peak = run.peak();
    List<Evidence> evidence = new ArrayList<>();
    if (peak == null) {
      return BenchVerdict.unjudged(
          run,
          null,
          "No row of " + testName(run) + " completed; nothing to judge.",
          run.end() == null || run.end().equals(run.start())
              ? List.of(run.start())
              : List.of(run.start(), run.end()));
    }
    evidence.add(peak.evidence());
    long hosts = hosts(run, ctx.log(), ctx.launches());
    if (hosts <= 0 && hw.instance() != null && run.nranks() > 0) {
      // no device lines and no log: as many nodes as the ranks need at the instance's GPU count
      hosts = (run.nranks() + hw.instance().gpus() - 1) / hw.instance().gpus();
    }
    if (hosts == NODES_UNKNOWN && run.nranks() > 1) {
      if (devicesCut(run)) {
        evidence.add(run.devices().getLast().evidence());
      }
      LaunchCommand mpirun = mpirun(ctx.launches(), run);
      if (mpirun != null) {
        evidence.add(mpirun.evidence());
      }
      return BenchVerdict.unjudged(
          run,
          peak,
          String.format(
                  Locale.ROOT,
                  "%s peaks at %s GB/s busbw (%s, out-of-place, %d ranks). Not judged: %s, so"
                      + " the nodes of the run, and the path between them, are unknown; an"
                      + " NVLink expectation would hold only if every rank shared one node.",
                  testName(run),
                  Numbers.gbps(peak.outOfPlace().busBw()),
                  Numbers.bytes(peak.bytes()),
                  run.nranks(),
                  whyNodesUnknown(run, ctx.launches()))
              + " Give the whole output (every # Rank line), the NCCL log (NCCL_DEBUG=INFO), or"
              + " --instance.",
          evidence);
    }
    boolean multiNode = hosts > 1;
    boolean nvlink = nvlinkBetweenGpus(hw, ctx.topology());
    ObservedPath ranOn =
        ctx.log() == null
            ? null
            : ObservedPath.of(ctx.log(), nvlink, multiNode || ctx.log().multiNode());
    PathKind offered = offered(hw, ctx.topology(), multiNode, ranOn);
    PathKind judgedOn = ranOn != null ? ranOn.path() : offered;
    double busbw = peak.outOfPlace().busBw();
    String head =
        String.format(
            Locale.ROOT,
            "%s peaks at %s GB/s busbw (%s, out-of-place, %d rank%s%s)",
            testName(run),
            Numbers.gbps(busbw),
            Numbers.bytes(peak.bytes()),
            run.nranks(),
            run.nranks() == 1 ? "" : "s",
            hosts > 0 ? " on " + hosts + (hosts == 1 ? " node" : " nodes") : "");
    if (run.nranks() == 1) {
      return BenchVerdict.unjudged(
          run,
          peak,
          head
              + ". One rank moves no data between GPUs: its busbw is a local copy (or, in place,"
              + " no copy at all), not a link's rate; nothing to judge.",
          evidence);
    }
    if (ranOn != null) {
      evidence.addAll(ranOn.evidence().stream().limit(2).toList());
    }
    if (ctx.topology() != null) {
      evidence.addAll(ctx.topology().evidence().stream().limit(2).toList());
    }
    if (judgedOn == null) {
      return BenchVerdict.unjudged(
          run,
          peak,
          head
              + (multiNode
                  ? ". The network between nodes is unknown: the file has no NCCL connection lines (run with"
                      + " NCCL_DEBUG=INFO) and no instance type was given (pass --instance, or --nic-gbps for"
                      + " InfiniBand)."
                  : ". The path is unknown: the file has no NCCL connection lines (run with NCCL_DEBUG=INFO) and"
                      + " the GPU is not known (pass --instance or --gpu, or give nvidia-smi topo -m)."),
          evidence);
    }
    Expectation expected = expectations.of(judgedOn, hw);
    Double ratio = expected.ratio(busbw);
    StringBuilder s = new StringBuilder(head);
    s.append(" over ").append(judgedOn.label());
    if (ranOn != null) {
      s.append(" (").append(ranOn.how()).append(")");
    } else {
      s.append(" (assumed: the best path the hardware offers; no NCCL connection lines)");
    }
    Grade grade;
    if (ranOn != null && offered != null && ranOn.path().slowerThan(offered)) {
      grade = Grade.SLOWER_PATH;
      Expectation better = expectations.of(offered, hw);
      s.append(". That is ").append(judgedOn.label()).append(" speed");
      if (ratio != null) {
        s.append(" (")
            .append(Numbers.percent(ratio))
            .append(" of ")
            .append(expected.basis())
            .append(")");
      }
      s.append(", but ")
          .append(offeredWhy(offered, hw, ctx.topology()))
          .append(
              better.rateGBps() == null
                  ? ""
                  : ", good for " + Numbers.gbps(better.rateGBps()) + " GB/s per direction")
          .append(
              better.rateGBps() == null
                  ? ""
                  : String.format(Locale.ROOT, " (%.0fx more)", better.rateGBps() / busbw))
          .append(". ")
          .append(fixFor(ranOn.path(), offered));
    } else if (ratio != null && !ringLike(run.collective())) {
      grade = Grade.UNJUDGED;
      s.append(
          String.format(
              Locale.ROOT,
              ". %s of %s; not judged against it: the catalog's healthy fractions are for all_reduce,"
                  + " all_gather, reduce_scatter, broadcast and reduce, whose busbw approaches the link rate;"
                  + " this collective's busbw has another bound.",
              Numbers.percent(ratio),
              expected.basis()));
    } else if (ratio == null) {
      grade = Grade.UNJUDGED;
      s.append(". ").append(expected.spec().typical());
      if (expected.rateGBps() == null && expected.spec().healthyFraction() != null) {
        s.append(" Cannot judge: ").append(expected.basis()).append('.');
      }
    } else {
      s.append(String.format(Locale.ROOT, ": %s of %s", Numbers.percent(ratio), expected.basis()));
      Double healthy = expected.spec().healthyFraction();
      Double warn = expected.spec().warnFraction();
      if (healthy == null) {
        grade = Grade.UNJUDGED;
        s.append(". ").append(expected.spec().typical());
      } else if (ratio > ABOVE_RATE) {
        grade = Grade.HEALTHY;
        s.append(
            ". Healthy; above the link rate, which in-network reduction (NVLS, SHARP) or Tree on few nodes"
                + " allow.");
      } else if (ratio >= healthy) {
        grade = Grade.HEALTHY;
        s.append(". Healthy (").append(expected.spec().typical()).append(")");
      } else if (warn != null && ratio >= warn) {
        grade = Grade.BELOW;
        s.append(
                String.format(
                    Locale.ROOT,
                    ". Below the %s expected of a healthy %s. ",
                    Numbers.percent(healthy),
                    judgedOn.label()))
            .append(expected.spec().typical());
      } else {
        grade = Grade.FAR_BELOW;
        s.append(
                String.format(
                    Locale.ROOT,
                    ". Far below the %s expected of a healthy %s",
                    Numbers.percent(healthy),
                    judgedOn.label()))
            .append(ranOn == null ? hint(busbw, hw) : ".")
            .append(' ')
            .append(expected.spec().typical());
      }
    }
    long largest = run.largest() == null ? peak.bytes() : run.largest().bytes();
    if (largest < PLATEAU_BYTES && grade != Grade.HEALTHY && stillRising(run)) {
      s.append(" The sweep stops at ")
          .append(Numbers.bytes(largest))
          .append(": busbw may still be rising; run up to at least 1 GiB (-e 1G).");
    }
    return new BenchVerdict(
        run, peak, ranOn, offered, expected, ratio, grade, s.toString().strip(), evidence);
  }

  /**
   * Whether the sweep's busbw still rose over its last two doublings (more than {@link
   * #FLAT_GAIN}): a sweep that stops short of {@link #PLATEAU_BYTES} on a flat curve has reached
   * its plateau (held-out set 27 l03: 12.57, 12.63, 12.69 GB/s at 8, 16, 32 MiB), so saying it may
   * still be rising would be false. True where the rows needed are missing.
   */
  static boolean stillRising(BenchRun run) {
    BenchRow last = run.largest();
    BenchRow before = last == null ? null : run.row(last.bytes() / 4);
    if (last == null
        || before == null
        || last.outOfPlace() == null
        || before.outOfPlace() == null
        || !(before.outOfPlace().busBw() > 0)) {
      return true;
    }
    return last.outOfPlace().busBw() > before.outOfPlace().busBw() * (1 + FLAT_GAIN);
  }

  /** The gain over two doublings of size below which a busbw curve counts as flat. */
  static final double FLAT_GAIN = 0.05;

  /**
   * Collectives whose peak busbw approaches the rate of the slowest link (nccl-tests
   * PERFORMANCE.md).
   */
  static boolean ringLike(Collective c) {
    return c == Collective.ALL_REDUCE
        || c == Collective.ALL_GATHER
        || c == Collective.REDUCE_SCATTER
        || c == Collective.BROADCAST
        || c == Collective.REDUCE;
  }

  private static String testName(BenchRun run) {
    return run.collective() == null ? "nccl-tests" : run.collective().testName();
  }

  /** The GPU from the run's device lines when the context does not name one. */
  private Hardware withGpuFromRun(Hardware hw, BenchRun run) {
    if (hw.gpu() != null) {
      return hw;
    }
    if (hw.instance() != null) {
      return hw.withGpu(expectations.catalog().gpuOf(hw.instance()));
    }
    for (BenchDevice d : run.devices()) {
      GpuSpec g = expectations.catalog().gpuByName(d.name()).orElse(null);
      if (g != null) {
        return hw.withGpu(g);
      }
    }
    return hw;
  }

  /**
   * The run's nodes: the hosts of its device lines when they list every rank (or already name
   * several hosts), else NCCL's log beside it, else the hosts its mpirun command names; {@link
   * #NODES_UNKNOWN} where the device lines are cut short of the ranks, or the command reads its
   * hosts from a hostfile, and nothing else names them; 0 where nothing says anything.
   */
  static long hosts(BenchRun run, Job log, List<LaunchCommand> launches) {
    long fromDevices =
        run.devices().stream().map(BenchDevice::host).filter(Objects::nonNull).distinct().count();
    if (fromDevices > 1 || (fromDevices == 1 && !devicesCut(run))) {
      return fromDevices;
    }
    if (log != null && !log.ranks().isEmpty()) {
      return log.multiNode() ? Math.max(2, log.hosts().size()) : 1;
    }
    LaunchCommand mpirun = mpirun(launches, run);
    if (mpirun != null && mpirun.hostCount() > 0) {
      return mpirun.hostCount();
    }
    if (fromDevices == 1 || (mpirun != null && !mpirun.hostfile().isEmpty())) {
      return NODES_UNKNOWN;
    }
    return 0;
  }

  /**
   * Whether the device lines stop short of the ranks: fewer lines than ranks, even counting each
   * line as every GPU of its process (JSON output keeps only each process's first rank).
   */
  static boolean devicesCut(BenchRun run) {
    int lines = run.devices().size();
    return run.nranks() > 0
        && lines < run.nranks()
        && (long) lines * Math.max(1, run.gpusPerProcess()) < run.nranks();
  }

  /** The mpirun command that started the run: the last one before its first line, or null. */
  private static LaunchCommand mpirun(List<LaunchCommand> launches, BenchRun run) {
    LaunchCommand found = null;
    for (LaunchCommand l : launches) {
      if (l.launcher().equals("mpirun")
          && (run.start() == null || l.evidence().line() <= run.start().line())) {
        found = l;
      }
    }
    return found;
  }

  private static String whyNodesUnknown(BenchRun run, List<LaunchCommand> launches) {
    List<String> why = new ArrayList<>();
    if (devicesCut(run)) {
      long hosts =
          run.devices().stream().map(BenchDevice::host).filter(Objects::nonNull).distinct().count();
      why.add(
          "the output lists "
              + run.devices().size()
              + " of its "
              + run.nranks()
              + " ranks' devices"
              + (hosts == 1 ? " (all on " + run.devices().getFirst().host() + ")" : ""));
    }
    LaunchCommand mpirun = mpirun(launches, run);
    if (mpirun != null && !mpirun.hostfile().isEmpty()) {
      why.add(
          "mpirun reads its hosts from "
              + mpirun.hostfile()
              + (mpirun.processCount() > 0 ? " for " + mpirun.processCount() + " processes" : ""));
    }
    return String.join(" and ", why);
  }

  private static boolean nvlinkBetweenGpus(Hardware hw, TopologyHint topo) {
    if (topo != null) {
      return topo.nvlink();
    }
    return hw.gpu() != null
        && hw.gpu().hasNvlink()
        && (hw.instance() == null || hw.instance().nvswitch());
  }

  private static PathKind offered(
      Hardware hw, TopologyHint topo, boolean multiNode, ObservedPath ranOn) {
    if (multiNode) {
      if (hw.instance() != null) {
        return hw.instance().efa() > 0 ? PathKind.EFA : PathKind.TCP;
      }
      if (ranOn != null && ranOn.path() != PathKind.TCP) {
        return ranOn.path();
      }
      // a NIC rate given without an instance type: an RDMA network (InfiniBand/RoCE) of that rate
      return hw.nicGbps() != null ? PathKind.IB : null;
    }
    if (topo != null) {
      if (topo.nvlink()) {
        return PathKind.NVLINK;
      }
      return topo.p2pBlocked() != null ? PathKind.SHM : PathKind.PCIE;
    }
    if (hw.gpu() == null) {
      return null;
    }
    return nvlinkBetweenGpus(hw, null) ? PathKind.NVLINK : PathKind.PCIE;
  }

  private static String offeredWhy(PathKind offered, Hardware hw, TopologyHint topo) {
    if (offered == PathKind.NVLINK && topo != null) {
      return "nvidia-smi topo -m shows " + topo.summary();
    }
    if (offered == PathKind.NVLINK && hw.gpu() != null) {
      return "the catalog gives " + hw.gpu().name() + " NVLink";
    }
    if (offered == PathKind.EFA && hw.instance() != null) {
      return hw.instance().type() + " has " + hw.instance().efa() + " EFA";
    }
    if (offered == PathKind.SHM && topo != null && topo.p2pBlocked() != null) {
      return "nvidia-smi "
          + topo.p2pBlocked()
          + " (no P2P between these GPUs; NCCL stages through host memory)";
    }
    if (offered == PathKind.PCIE && topo != null) {
      return "nvidia-smi topo -m shows " + topo.summary() + " (PCIe P2P possible)";
    }
    return "the hardware offers " + offered.label();
  }

  private static String fixFor(PathKind ran, PathKind offered) {
    if (offered.intraNode() && (ran == PathKind.SHM || ran == PathKind.TCP)) {
      return "Something disables P2P: look for NCCL_P2P_DISABLE, NCCL_P2P_LEVEL or NCCL_SHM_DISABLE in the"
          + " environment, and for GPUs split across containers (topolens diagnose names the cause).";
    }
    if (offered == PathKind.EFA && ran == PathKind.TCP) {
      return "NCCL fell back to TCP sockets: the EFA plugin (aws-ofi-nccl) did not load or found no EFA device"
          + " (topolens diagnose shows the plugin lines).";
    }
    return "Check the NCCL log with topolens diagnose for why NCCL chose this path.";
  }

  /** Without a log: which slower path the number looks like, from the catalog's typical numbers. */
  private static String hint(double busbw, Hardware hw) {
    if (busbw <= 6) {
      return ", in the range of TCP sockets (1.1-5.2 GB/s, NCCL-450): check that P2P, SHM and the network plugin"
          + " are not disabled.";
    }
    if (hw.gpu() != null && hw.gpu().pcie() != null && busbw <= hw.gpu().pcie().gbps()) {
      return ", at or below PCIe speed ("
          + Numbers.gbps(hw.gpu().pcie().gbps())
          + " GB/s per direction): consistent with SHM staging through host memory (P2P disabled).";
    }
    return ".";
  }
}
