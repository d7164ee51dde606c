package io.topolens.perf;

/**
 * The predicted cost of one collective call.
 *
 * @param busBwGBps the model's bus bandwidth for the chosen algorithm and protocol
 * @param latencyUs the latency term of the call
 * @param timeUs latency plus bytes over algorithm bandwidth
 * @param bottleneck the path that bounds the bandwidth
 */
public record CollectiveCost(
    CollectiveOp op,
    long bytes,
    int ranks,
    Algorithm algorithm,
    Protocol protocol,
    double busBwGBps,
    double latencyUs,
    double timeUs,
    PathKind bottleneck) {

  public double seconds() {
    return timeUs / 1e6;
  }

  /** nccl-tests' algbw for this call: bytes over time, GB/s. */
  public double algBw() {
    return bytes / (timeUs * 1e3);
  }

  /** nccl-tests' busbw for this call. */
  public double measuredStyleBusBw() {
    return algBw() * op.busBwFactor(ranks);
  }
}
