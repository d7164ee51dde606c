package io.topolens.perf;

import java.util.List;

/**
 * What one path gives a group of ranks: the bus bandwidth a Ring/Simple collective reaches over it,
 * and the per-hop latency of Simple, with where both come from.
 *
 * @param busBwGBps Ring/Simple bus bandwidth in GB/s (NCCL's {@code nChannels x bw})
 * @param channels the channels NCCL builds over it (bounds the per-channel caps of LL128 and Tree)
 * @param hopLatencyUs Simple per-hop latency in microseconds, or null to use NCCL's table
 * @param basis how the numbers were obtained, in words with the arithmetic
 * @param sources catalog, model or calibration sources (keys, file names)
 * @param calibrated whether the numbers were fitted to nccl-tests output
 */
public record Link(
    PathKind path,
    double busBwGBps,
    int channels,
    Double hopLatencyUs,
    String basis,
    List<String> sources,
    boolean calibrated) {

  public Link {
    if (!(busBwGBps > 0)) {
      throw new IllegalArgumentException(path + " bandwidth must be positive: " + busBwGBps);
    }
    channels = Math.max(1, channels);
    sources = List.copyOf(sources);
  }

  /** The same link with its bandwidth divided among {@code sharers} (pods sharing one NIC). */
  public Link sharedBy(int sharers, String why) {
    if (sharers <= 1) {
      return this;
    }
    return new Link(
        path, busBwGBps / sharers, channels, hopLatencyUs, basis + "; " + why, sources, calibrated);
  }
}
