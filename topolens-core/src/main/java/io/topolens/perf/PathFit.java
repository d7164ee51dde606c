package io.topolens.perf;

import java.util.List;

/**
 * Bandwidth and latency of one path fitted to nccl-tests results.
 *
 * @param busBwGBps fitted Ring/Simple bus bandwidth
 * @param hopLatencyUs fitted Simple per-hop latency
 * @param points how many (size, time) points the fit used
 * @param rmsRelError root-mean-square relative error of the fitted times over those points
 * @param maxRelError largest relative error of a fitted time
 * @param files the nccl-tests outputs fitted
 * @param gpu the GPU name the outputs report, or null
 * @param netHops network hops per ring of the runs fitted (their host's flows), 0 when unknown or
 *     when the runs differ
 */
public record PathFit(
    PathKind path,
    double busBwGBps,
    double hopLatencyUs,
    int points,
    double rmsRelError,
    double maxRelError,
    List<String> files,
    String gpu,
    int netHops) {

  public PathFit {
    files = List.copyOf(files);
  }

  public PathFit(
      PathKind path,
      double busBwGBps,
      double hopLatencyUs,
      int points,
      double rmsRelError,
      double maxRelError,
      List<String> files,
      String gpu) {
    this(path, busBwGBps, hopLatencyUs, points, rmsRelError, maxRelError, files, gpu, 0);
  }

  /** The same fit, the runs having had {@code hops} network hops per ring. */
  public PathFit withNetHops(int hops) {
    return new PathFit(
        path, busBwGBps, hopLatencyUs, points, rmsRelError, maxRelError, files, gpu, hops);
  }

  /** The same fit with its bus bandwidth times {@code factor} (a fit to a measured step). */
  public PathFit scaled(double factor) {
    return new PathFit(
        path,
        busBwGBps * factor,
        hopLatencyUs,
        points,
        rmsRelError,
        maxRelError,
        files,
        gpu,
        netHops);
  }
}
