package io.topolens.perf;

/**
 * One measured collective time from nccl-tests, as the calibration uses it.
 *
 * @param path the path the run exercised
 * @param nodes NCCL nodes in the run (1 for a single host)
 * @param bytes nccl-tests' size column
 * @param timeUs the measured time of one call
 * @param file where it was read, and {@code line} its line
 */
public record CalibrationPoint(
    PathKind path,
    CollectiveOp op,
    int ranks,
    int nodes,
    long bytes,
    double timeUs,
    String file,
    long line) {}
