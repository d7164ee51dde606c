package io.topolens.perf;

import java.util.EnumSet;
import java.util.Set;

/**
 * Predicts the rows of an nccl-tests run from a link: the communicator the run had (its ranks on
 * one host, or spread evenly over its hosts), the algorithm and protocol it forced, and {@link
 * CollectiveModel}'s time for each size.
 */
public final class BenchModel {
  private final CollectiveModel costs;

  public BenchModel(CollectiveModel costs) {
    this.costs = costs;
  }

  /** The communicator of a run over {@code link}. */
  public CommGroup group(BenchSample s, BenchSample.Row r, Link link, GpuArch arch) {
    int n = r.ranks();
    Set<Protocol> protocols =
        link.path() == PathKind.NVLINK
            ? EnumSet.allOf(Protocol.class)
            : EnumSet.of(Protocol.LL, Protocol.SIMPLE);
    if (s.nodes() > 1 && n % s.nodes() == 0) {
      return new CommGroup(n, s.nodes(), n / s.nodes(), link, link, arch, protocols);
    }
    return new CommGroup(n, 1, n, link, null, arch, protocols);
  }

  /** The predicted call for one row, with the algorithm and protocol the run forced, if any. */
  public CollectiveCost predict(BenchSample s, BenchSample.Row r, Link link, GpuArch arch) {
    CommGroup g = group(s, r, link, arch);
    Algorithm a = s.forcedAlgorithm();
    Protocol p = s.forcedProtocol();
    if (a == null && p == null) {
      return costs.cost(r.op(), r.bytes(), g);
    }
    CollectiveCost best = null;
    for (Algorithm algo : Algorithm.values()) {
      for (Protocol proto : Protocol.values()) {
        if ((a != null && algo != a) || (p != null && proto != p)) {
          continue;
        }
        CollectiveCost c = costs.cost(r.op(), r.bytes(), g, algo, proto).orElse(null);
        if (c != null && (best == null || c.timeUs() < best.timeUs())) {
          best = c;
        }
      }
    }
    return best != null ? best : costs.cost(r.op(), r.bytes(), g);
  }
}
