package io.topolens.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a results table says about the number of ranks in the communicator.
 *
 * <p>Where the printed size is {@code count x type size x nranks} (all_gather, reduce_scatter,
 * alltoall, scatter, gather, hypercube) the division gives it exactly. Otherwise busbw/algbw is the
 * collective's factor ({@code 2(n-1)/n} for all_reduce): each printed pair bounds the factor within
 * its rounding ({@code %.2f}, {@code %.1f} or {@code %.0f} by magnitude), and the intersection over
 * every row gives a range of n. Near 2 the factor changes slowly, so for hundreds of ranks the
 * range holds several values; then the multiple of 8 nearest the least-squares estimate is taken
 * (nodes of 8 GPUs), else the integer nearest it. Collectives whose factor is 1 say nothing.
 *
 * @param low the smallest rank count the table allows
 * @param high the largest ({@link Integer#MAX_VALUE} when unbounded)
 * @param estimate the least-squares estimate (exact for the count division)
 * @param basis how it was found, for evidence
 */
public record RankInference(int low, int high, double estimate, String basis) {

  /** What the table of {@code c} says, or null when it says nothing. */
  public static RankInference of(Collective c, List<BenchRow> rows) {
    if (c == null) {
      return null;
    }
    if (c.countPerRank()) {
      RankInference byCount = fromCount(rows);
      if (byCount != null) {
        return byCount;
      }
    }
    if (c.factor() == Collective.Factor.ONE) {
      return null;
    }
    return fromFactor(c.factor(), rows);
  }

  /** The single value chosen within the range, at least {@code atLeast}; 0 when none fits. */
  public int choose(int atLeast) {
    int lo = Math.max(low, Math.max(1, atLeast));
    int hi = high;
    if (lo > hi) {
      return 0;
    }
    if (lo == hi) {
      return lo;
    }
    double e = Double.isFinite(estimate) ? estimate : lo;
    long firstMultiple = ((lo + 7L) / 8) * 8;
    if (firstMultiple <= hi) {
      long lastMultiple = (hi / 8L) * 8;
      long near = Math.round(e / 8) * 8;
      return (int) Math.max(firstMultiple, Math.min(lastMultiple, near));
    }
    long r = Math.round(e);
    return (int) Math.max(lo, Math.min(hi, r));
  }

  /** The exact n from {@code size = count x type size x n}, or null. */
  static RankInference fromCount(List<BenchRow> rows) {
    Map<Long, Integer> votes = new HashMap<>();
    for (BenchRow r : rows) {
      int ts = DataTypes.size(r.type());
      if (r.count() <= 0 || ts == 0) {
        continue;
      }
      long per = r.count() * ts;
      if (r.bytes() % per != 0) {
        return null;
      }
      votes.merge(r.bytes() / per, 1, Integer::sum);
    }
    if (votes.size() != 1) {
      return null;
    }
    long n = votes.keySet().iterator().next();
    if (n < 1 || n > Integer.MAX_VALUE) {
      return null;
    }
    return new RankInference(
        (int) n, (int) n, n, "size = count x type size x " + n + " in every row");
  }

  /** The range of n that busbw/algbw allows under factor {@code f}, or null. */
  static RankInference fromFactor(Collective.Factor f, List<BenchRow> rows) {
    if (f == Collective.Factor.ONE) {
      return null;
    }
    double lo = 0;
    double hi = Double.MAX_VALUE;
    double sumAb = 0;
    double sumAa = 0;
    int used = 0;
    for (BenchRow r : rows) {
      for (BenchResult h : new BenchResult[] {r.outOfPlace(), r.inPlace()}) {
        if (h == null || !Double.isFinite(h.algBw()) || !Double.isFinite(h.busBw())) {
          continue;
        }
        double a = h.algBw();
        double b = h.busBw();
        double ta = tolerance(a);
        double tb = tolerance(b);
        if (a - ta <= 0) {
          continue;
        }
        lo = Math.max(lo, (b - tb) / (a + ta));
        hi = Math.min(hi, (b + tb) / (a - ta));
        sumAb += a * b;
        sumAa += a * a;
        used++;
      }
    }
    if (used == 0 || lo > hi) {
      return null;
    }
    double ratio = sumAb / sumAa;
    double limit = f == Collective.Factor.TWO_N_MINUS_1_OVER_N ? 2 : 1;
    if (lo >= limit) {
      return null;
    }
    double nLo = ranks(lo, limit);
    double nHi = ranks(hi, limit);
    int low = (int) Math.max(1, Math.ceil(nLo - 1e-9));
    int high = nHi >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) Math.floor(nHi + 1e-9);
    if (low > high) {
      return null;
    }
    String formula = f == Collective.Factor.TWO_N_MINUS_1_OVER_N ? "2(n-1)/n" : "(n-1)/n";
    String range = high == Integer.MAX_VALUE ? low + " or more" : low + ".." + high;
    return new RankInference(
        low,
        high,
        ranks(ratio, limit),
        String.format(
            Locale.ROOT,
            "busbw/algbw = %.5f over %d results, %s for n in %s",
            ratio,
            used,
            formula,
            range));
  }

  /** n from the factor: {@code limit / (limit - F)} for {@code F = limit (n-1)/n}. */
  private static double ranks(double factor, double limit) {
    if (factor >= limit) {
      return Double.POSITIVE_INFINITY;
    }
    return limit / (limit - Math.max(0, factor));
  }

  /** Half a unit of the last printed digit, by nccl-tests' width-6 rule (wider never hurts). */
  private static double tolerance(double v) {
    double a = Math.abs(v);
    if (a < 1000) {
      return 0.005;
    }
    if (a < 10000) {
      return 0.05;
    }
    return 0.5;
  }
}
