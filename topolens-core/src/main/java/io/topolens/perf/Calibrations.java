package io.topolens.perf;

import io.topolens.bench.ProbeLaunch;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fits every path that the given nccl-tests samples cover into one {@link Calibration}. */
public final class Calibrations {
  private Calibrations() {}

  /**
   * Groups the samples by path and fits each path on its Ring/Simple samples.
   *
   * @throws InputProblem when a path has only samples forced to another algorithm or protocol, or
   *     too few sizes
   */
  public static Calibration fit(List<BenchSample> samples, Calibrator calibrator)
      throws InputProblem {
    Map<PathKind, List<BenchSample>> byPath = new LinkedHashMap<>();
    for (BenchSample s : samples) {
      byPath.computeIfAbsent(s.path(), p -> new ArrayList<>()).add(s);
    }
    List<PathFit> fits = new ArrayList<>();
    for (Map.Entry<PathKind, List<BenchSample>> e : byPath.entrySet()) {
      List<CalibrationPoint> points = new ArrayList<>();
      String gpu = null;
      java.util.Set<Integer> hops = new java.util.HashSet<>();
      for (BenchSample s : e.getValue()) {
        if (s.ringSimple()) {
          points.addAll(s.points());
          gpu = gpu == null ? s.gpu() : gpu;
          hops.add(s.netHops());
        }
      }
      if (points.isEmpty()) {
        throw new InputProblem(
            String.join(", ", e.getValue().stream().map(BenchSample::file).toList())
                + ": every run forces NCCL_ALGO/NCCL_PROTO away from Ring/Simple; calibration"
                + " fits Ring/Simple runs");
      }
      PathFit f = calibrator.fit(e.getKey(), points, gpu);
      fits.add(hops.size() == 1 ? f.withNetHops(hops.iterator().next()) : f);
    }
    return Calibration.of(fits).withLaunch(medianLaunch(samples));
  }

  /**
   * The probes' launch measurement of median layer time among the samples that hold one (each file
   * one probe, one draw of the host's speed), or null when none does.
   */
  static ProbeLaunch medianLaunch(List<BenchSample> samples) {
    List<ProbeLaunch> l =
        samples.stream()
            .map(BenchSample::launch)
            .filter(java.util.Objects::nonNull)
            .sorted(java.util.Comparator.comparingDouble(ProbeLaunch::layerUs))
            .toList();
    return l.isEmpty() ? null : l.get((l.size() - 1) / 2);
  }
}
