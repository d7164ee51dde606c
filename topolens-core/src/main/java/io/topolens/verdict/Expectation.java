package io.topolens.verdict;

import io.topolens.catalog.PathSpec;
import io.topolens.catalog.Source;
import java.util.List;

/**
 * What a path should deliver: the rate that bounds it and where that number comes from.
 *
 * @param rateGBps the bounding rate in GB/s per direction, or null when nothing known bounds it
 * @param basis how the rate was found, in words ("NVLink 4, 18 links, on NVIDIA H200")
 * @param spec the catalog's entry for the path: thresholds and typical results
 */
public record Expectation(
    PathKind path, Double rateGBps, String basis, PathSpec spec, List<Source> sources) {

  public Expectation {
    sources = List.copyOf(sources);
  }

  /** busbw over the rate, or null when the rate is unknown. */
  public Double ratio(double busBw) {
    return rateGBps == null || rateGBps <= 0 ? null : busBw / rateGBps;
  }
}
