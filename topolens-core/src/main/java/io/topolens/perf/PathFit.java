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
 */
public record PathFit(
    PathKind path,
    double busBwGBps,
    double hopLatencyUs,
    int points,
    double rmsRelError,
    double maxRelError,
    List<String> files,
    String gpu) {

  public PathFit {
    files = List.copyOf(files);
  }
}
