package io.topolens.bench;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which collectives a results table fits, for output that never names its test (excerpts, versions
 * before 2.17): whether size is count x type size (or that times nranks), what the redop column
 * holds, whether a root is printed, and whether busbw/algbw fits the collective's factor.
 * all_gather and alltoall print the same columns, as do scatter and gather: a file name can then
 * settle it.
 */
final class CollectiveInference {
  private CollectiveInference() {}

  /** The collectives the rows fit; every collective when the rows say nothing. */
  static Set<Collective> fromTable(List<BenchRow> rows) {
    Set<Collective> fit = EnumSet.allOf(Collective.class);
    Boolean perRank = null;
    boolean allZeroBusBw = true;
    for (BenchRow r : rows) {
      int ts = DataTypes.size(r.type());
      if (r.count() > 0 && ts > 0) {
        boolean whole = r.bytes() == r.count() * ts;
        if (perRank == null) {
          perRank = !whole;
        } else if (perRank == whole) {
          return EnumSet.noneOf(Collective.class);
        }
      }
      if (r.outOfPlace() != null && r.outOfPlace().busBw() != 0) {
        allZeroBusBw = false;
      }
    }
    if (perRank != null) {
      boolean pr = perRank;
      boolean oneRank = allZeroBusBw;
      // with one rank, size = count x type size for every collective
      fit.removeIf(c -> c.countPerRank() != pr && !(c.countPerRank() && oneRank));
    }
    for (BenchRow r : rows) {
      if (r.redop() != null) {
        Collective.Redop kind =
            r.redop().isEmpty()
                ? Collective.Redop.EMPTY
                : r.redop().equals("none") ? Collective.Redop.NONE : Collective.Redop.OPERATION;
        fit.removeIf(c -> c.redop() != kind);
      }
      if (r.root() != null) {
        boolean rooted = r.root() >= 0;
        fit.removeIf(c -> c.rooted() != rooted);
      }
    }
    if (!rows.isEmpty()) {
      boolean old = rows.stream().allMatch(r -> r.root() == null);
      fit.removeIf(c -> !factorFits(c, rows, old));
    }
    return fit;
  }

  /**
   * Whether busbw/algbw fits the collective. Tables without a root column come from nccl-tests
   * versions whose all_gather (and the other per-rank tests) printed algbw = size x (n-1)/n / time
   * and busbw = algbw: for those a factor of 1 fits too.
   */
  private static boolean factorFits(Collective c, List<BenchRow> rows, boolean old) {
    if (c.factor() == Collective.Factor.ONE || (old && c.countPerRank() && equalBandwidths(rows))) {
      return equalBandwidths(rows);
    }
    RankInference byFactor = RankInference.fromFactor(c.factor(), rows);
    if (byFactor == null) {
      return hasNoBandwidth(rows);
    }
    RankInference byCount = c.countPerRank() ? RankInference.fromCount(rows) : null;
    if (byCount != null) {
      return byCount.low() >= byFactor.low() && byCount.low() <= byFactor.high();
    }
    return true;
  }

  /** Whether every row's busbw equals its algbw, within the printed precision. */
  private static boolean equalBandwidths(List<BenchRow> rows) {
    for (BenchRow r : rows) {
      for (BenchResult h : new BenchResult[] {r.outOfPlace(), r.inPlace()}) {
        if (h != null
            && Double.isFinite(h.algBw())
            && Math.abs(h.busBw() - h.algBw()) > tolerance(h.algBw()) + tolerance(h.busBw())) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean hasNoBandwidth(List<BenchRow> rows) {
    for (BenchRow r : rows) {
      if (r.outOfPlace() != null && r.outOfPlace().algBw() > 0.005) {
        return false;
      }
    }
    return true;
  }

  private static double tolerance(double v) {
    double a = Math.abs(v);
    return a < 1000 ? 0.005 : a < 10000 ? 0.05 : 0.5;
  }

  /**
   * The collectives a file name mentions, by test name with or without separators ({@code
   * all_gather}, {@code all-gather}, {@code allgather}), longer names first so that {@code
   * reduce_scatter} is not also read as {@code scatter} and {@code reduce}.
   */
  static Set<Collective> fromName(String name) {
    Set<Collective> found = EnumSet.noneOf(Collective.class);
    if (name == null) {
      return found;
    }
    String n = name.toLowerCase(Locale.ROOT).replaceAll("[-_ .]", "");
    List<Collective> byLength = new ArrayList<>(List.of(Collective.values()));
    byLength.sort((a, b) -> key(b).length() - key(a).length());
    for (Collective c : byLength) {
      String k = key(c);
      int at = n.indexOf(k);
      while (at >= 0) {
        found.add(c);
        n = n.substring(0, at) + "|" + n.substring(at + k.length());
        at = n.indexOf(k);
      }
    }
    return found;
  }

  private static String key(Collective c) {
    String t = c.testName();
    return t.substring(0, t.length() - "_perf".length()).replace("_", "");
  }
}
