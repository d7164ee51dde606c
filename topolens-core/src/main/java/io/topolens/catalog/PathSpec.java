package io.topolens.catalog;

import java.util.List;

/**
 * A path between two GPUs and what a benchmark on it should reach.
 *
 * @param id nvlink, pcie, shm, efa, ib or tcp
 * @param rate which number bounds it: {@code gpu.nvlink}, {@code gpu.pcie}, {@code instance.efa} or
 *     {@code nic}
 * @param healthyFraction the fraction of that rate at or above which busbw is healthy, or null when
 *     the path has no meaningful bound (TCP is CPU-bound)
 * @param warnFraction below this fraction a shortfall is an error, above it a warning
 * @param typical what real runs reach, in words, with the sources
 */
public record PathSpec(
    String id,
    String name,
    String rate,
    Double healthyFraction,
    Double warnFraction,
    String typical,
    List<String> sources) {

  public PathSpec {
    sources = List.copyOf(sources);
  }
}
