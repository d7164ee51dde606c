package io.topolens.perf;

import io.topolens.perf.BenchLines.ThreadRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The host-threads sweep (bench/host-threads.py) against one question: does a training step slow
 * down when its ranks' CPU threads oversubscribe the host's vCPUs ({@link HostThreads}) while
 * nothing else runs, and when busy co-processes take the vCPUs? Runs of a shape are compared by
 * their step medians: the runs whose threads exceed the vCPUs against those within them, with the
 * spread among runs of one group and the vCPUs each rank kept busy (idle OpenMP workers add none).
 *
 * @param runs every run read, in file order
 * @param malformed the sweep's lines that could not be used (failed runs), named by file and line
 */
public record HostThreadsSweep(List<ThreadRun> runs, List<String> malformed) {

  /**
   * Ranks that keep at most this many vCPUs busy run only the thread that launches the step: their
   * OpenMP workers sit idle (5% of a vCPU beyond the one, the resolution of /proc's clock ticks
   * over a few seconds of steps).
   */
  public static final double IDLE_BUSY = 1.05;

  public HostThreadsSweep {
    runs = List.copyOf(runs);
    malformed = List.copyOf(malformed);
  }

  /** The sweep's lines among what the bench files held; null when they held none. */
  public static HostThreadsSweep of(BenchLines.Read data) {
    if (data.threadRuns().isEmpty()) {
      return null;
    }
    List<String> files =
        data.threadRuns().stream().map(r -> r.evidence().file()).distinct().toList();
    return new HostThreadsSweep(
        data.threadRuns(),
        data.malformed().stream().filter(m -> files.stream().anyMatch(m::startsWith)).toList());
  }

  /** The files the runs came from (each one machine), in order. */
  public List<String> files() {
    return runs.stream().map(r -> r.evidence().file()).distinct().toList();
  }

  /**
   * Runs of one kind: how many, the median of their step medians, the least and largest, and the
   * least and most vCPUs a rank kept busy.
   */
  public record Group(
      int runs, double medianS, double minS, double maxS, double busyMin, double busyMax) {
    static Group of(List<ThreadRun> rs) {
      if (rs.isEmpty()) {
        return null;
      }
      double[] steps = rs.stream().mapToDouble(ThreadRun::stepS).toArray();
      return new Group(
          rs.size(),
          BenchLines.median(steps),
          rs.stream().mapToDouble(ThreadRun::stepS).min().orElseThrow(),
          rs.stream().mapToDouble(ThreadRun::stepS).max().orElseThrow(),
          rs.stream().mapToDouble(ThreadRun::busy).min().orElseThrow(),
          rs.stream().mapToDouble(ThreadRun::busy).max().orElseThrow());
    }

    /** The largest run over the least, less one: how far runs of one kind differ. */
    public double spread() {
      return maxS / minS - 1;
    }
  }

  /**
   * One setting of one shape in one file, as the sweep's table shows it.
   *
   * @param run its first run, which says the shape, setting, processes, threads and vCPUs
   */
  public record Setting(ThreadRun run, Group group) {}

  /** Every (file, shape, setting), in the order the runs came. */
  public List<Setting> settings() {
    Map<String, List<ThreadRun>> by = new LinkedHashMap<>();
    for (ThreadRun r : runs) {
      by.computeIfAbsent(
              r.evidence().file() + "\0" + r.shape() + "\0" + r.setting(), x -> new ArrayList<>())
          .add(r);
    }
    return by.values().stream().map(rs -> new Setting(rs.get(0), Group.of(rs))).toList();
  }

  /** The shapes swept, in order. */
  public List<String> shapes() {
    return runs.stream().map(ThreadRun::shape).distinct().toList();
  }

  /**
   * Runs of one shape without co-processes, split by whether their threads exceed the vCPUs, and
   * the runs beside busy co-processes.
   *
   * @param within threads within the vCPUs, no co-processes
   * @param over threads over the vCPUs, no co-processes (null when none ran)
   * @param spinning beside busy co-processes (null when none ran)
   */
  public record Effect(String shape, Group within, Group over, Group spinning) {
    /** The step with threads over the vCPUs against within them, less one. */
    public double overEffect() {
      return over.medianS() / within.medianS() - 1;
    }

    /** Whether that is smaller than the spread among the runs within the vCPUs. */
    public boolean overWithinSpread() {
      return Math.abs(overEffect()) < within.spread();
    }

    /** Whether the ranks with threads over the vCPUs kept no more than one vCPU busy each. */
    public boolean overThreadsIdle() {
      return over.busyMax() <= IDLE_BUSY;
    }

    /** The step beside busy co-processes against the runs within the vCPUs, less one. */
    public double spinEffect() {
      return spinning.medianS() / within.medianS() - 1;
    }
  }

  /**
   * The effect among the runs of {@code shape} from the files {@code file} accepts; null if none.
   */
  public Effect effect(String shape, Predicate<String> file) {
    List<ThreadRun> rs =
        runs.stream()
            .filter(r -> r.shape().equals(shape) && file.test(r.evidence().file()))
            .toList();
    Group within =
        Group.of(rs.stream().filter(r -> r.spinners() == 0 && !r.host().oversubscribed()).toList());
    if (within == null) {
      return null;
    }
    return new Effect(
        shape,
        within,
        Group.of(rs.stream().filter(r -> r.spinners() == 0 && r.host().oversubscribed()).toList()),
        Group.of(rs.stream().filter(r -> r.spinners() > 0).toList()));
  }

  /** The shape of these dimensions (named h<hidden>-l<layers>-s<seq>), or null if not swept. */
  public String shapeOf(int hidden, int layers, int seq) {
    return runs.stream()
        .filter(r -> r.shapeIs(hidden, layers, seq))
        .map(ThreadRun::shape)
        .findFirst()
        .orElse(null);
  }
}
