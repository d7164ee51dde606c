package io.topolens.perf;

import io.topolens.perf.BenchLines.PhaseRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Fits {@code compute.launchPerPeerShare} to bench/fsdp-phases.py runs of FSDP2 over NCCL at
 * several world sizes on one host: each run of N ranks (its forward+backward, the slowest rank's,
 * since the collectives hold the ranks together) over the median world-1 run of the same shape in
 * the same file (the same host), and the share is the median over those runs of (ratio - 1) / (N -
 * 1). Each file is also predicted with the share fitted to the other files alone (held out).
 *
 * @param points every run of more than one rank, with its ratio to world 1
 * @param share the fitted share per other rank, over every file
 * @param heldOut per file, the share fitted to the other files, or absent with one file
 */
public record LaunchPeers(List<Point> points, double share, Map<String, Double> heldOut) {

  /** The constant this fits. */
  public static final String SHARE = "compute.launchPerPeerShare";

  public LaunchPeers {
    points = List.copyOf(points);
    heldOut = Map.copyOf(heldOut);
  }

  /**
   * One run of {@code world} ranks against world 1 on the same host.
   *
   * @param fwdBwdS the slowest rank's median forward+backward
   * @param worldOneS the median over the world-1 runs of the shape in the file
   * @param worldOneRuns how many world-1 runs that median is of
   */
  public record Point(
      String file,
      String label,
      String tag,
      int world,
      double fwdBwdS,
      double worldOneS,
      int worldOneRuns) {
    public double ratio() {
      return fwdBwdS / worldOneS;
    }

    /** This run's own share per other rank. */
    public double share() {
      return (ratio() - 1) / (world - 1);
    }

    /** The ratio a share gives at this world size. */
    public double predicted(double share) {
      return 1 + share * (world - 1);
    }
  }

  /** The fit, or null where no file has FSDP2 runs of one rank and of several of a shape. */
  public static LaunchPeers fit(List<PhaseRun> runs) {
    List<PhaseRun> fsdp = runs.stream().filter(r -> "fsdp".equals(r.mode())).toList();
    Map<String, List<Double>> one = new LinkedHashMap<>();
    Map<String, List<PhaseRun>> many = new LinkedHashMap<>();
    for (PhaseRun r : fsdp) {
      String file = r.evidence().file();
      if (r.world() == 1) {
        one.computeIfAbsent(file + "\n" + r.tag(), x -> new ArrayList<>()).add(r.fwdBwdS());
      } else {
        many.computeIfAbsent(file + "\n" + r.label() + "\n" + r.tag(), x -> new ArrayList<>())
            .add(r);
      }
    }
    List<Point> points = new ArrayList<>();
    for (List<PhaseRun> ranks : many.values()) {
      PhaseRun first = ranks.get(0);
      List<Double> ref = one.get(first.evidence().file() + "\n" + first.tag());
      if (ref == null) {
        continue;
      }
      double slowest = ranks.stream().mapToDouble(PhaseRun::fwdBwdS).max().orElseThrow();
      points.add(
          new Point(
              first.evidence().file(),
              first.label(),
              first.tag(),
              first.world(),
              slowest,
              BenchLines.median(ref.stream().mapToDouble(Double::doubleValue).toArray()),
              ref.size()));
    }
    if (points.isEmpty()) {
      return null;
    }
    Map<String, Double> heldOut = new LinkedHashMap<>();
    List<String> files = points.stream().map(Point::file).distinct().toList();
    if (files.size() > 1) {
      for (String f : files) {
        heldOut.put(f, share(points.stream().filter(p -> !p.file().equals(f)).toList()));
      }
    }
    return new LaunchPeers(points, share(points), heldOut);
  }

  /** The median of the points' own shares. */
  static double share(List<Point> points) {
    return BenchLines.median(points.stream().mapToDouble(Point::share).toArray());
  }

  /** The files the points come from, in order. */
  public List<String> files() {
    return points.stream().map(Point::file).distinct().toList();
  }

  /** The largest world size measured. */
  public int maxWorld() {
    return points.stream().mapToInt(Point::world).max().orElse(1);
  }

  /** The error of largest size of the file's ratios predicted with the other files' share. */
  public Double worstHeldOut(String file) {
    Double s = heldOut.get(file);
    if (s == null) {
      return null;
    }
    return points.stream()
        .filter(p -> Objects.equals(p.file(), file))
        .mapToDouble(p -> p.predicted(s) / p.ratio() - 1)
        .reduce((a, b) -> Math.abs(a) >= Math.abs(b) ? a : b)
        .orElse(Double.NaN);
  }
}
