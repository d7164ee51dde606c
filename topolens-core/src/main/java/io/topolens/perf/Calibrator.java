package io.topolens.perf;

import io.topolens.nccl.InputProblem;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Fits a path's Ring/Simple bus bandwidth {@code B} and per-hop latency {@code h} to measured
 * nccl-tests times, with NCCL's time model: {@code t = base + hops x h + bytes x nsteps / (n x B)},
 * base being NCCL's Ring/Simple base latency and hops its ring step count. The fit is linear least
 * squares on relative error (each point weighted by 1/t^2, so every size counts alike), with {@code
 * h >= 0}. Only sizes of at least {@code minBytes} take part: below a few MiB NCCL runs LL or
 * LL128, which this fit does not describe.
 */
public final class Calibrator {
  /** Sizes below this are left out of a fit by default: 16 MiB. */
  public static final long DEFAULT_MIN_BYTES = 16L << 20;

  private final PerfConstants k;
  private final long minBytes;

  public Calibrator(PerfConstants constants, long minBytes) {
    this.k = constants;
    this.minBytes = minBytes;
  }

  public static Calibrator standard() {
    return new Calibrator(PerfConstants.bundled(), DEFAULT_MIN_BYTES);
  }

  public long minBytes() {
    return minBytes;
  }

  /**
   * Fits one path.
   *
   * @param points measured times on that path; those below {@code minBytes} and alltoall are
   *     skipped
   * @param gpu the GPU name the outputs report, or null
   * @throws InputProblem when fewer than two usable sizes remain or the fit is not physical
   */
  public PathFit fit(PathKind path, List<CalibrationPoint> points, String gpu) throws InputProblem {
    double base = k.value("nccl.baseLatency.ring", Protocol.SIMPLE.column());
    double saa = 0;
    double sax = 0;
    double sxx = 0;
    double say = 0;
    double sxy = 0;
    int used = 0;
    Set<Long> sizes = new LinkedHashSet<>();
    Set<String> files = new LinkedHashSet<>();
    Set<String> given = new LinkedHashSet<>();
    for (CalibrationPoint p : points) {
      given.add(p.file());
      if (!usable(p)) {
        continue;
      }
      double a = hops(p);
      double x = x(p);
      double y = p.timeUs() - base;
      double w = 1.0 / (p.timeUs() * p.timeUs());
      saa += w * a * a;
      sax += w * a * x;
      sxx += w * x * x;
      say += w * a * y;
      sxy += w * x * y;
      used++;
      sizes.add(p.bytes());
      files.add(p.file());
    }
    // a message names the files even when none of their sizes could be used
    Set<String> named = files.isEmpty() ? given : files;
    String name = path.label() + (named.isEmpty() ? "" : " (" + String.join(", ", named) + ")");
    if (sizes.size() < 2) {
      throw new InputProblem(
          name
              + ": fewer than two sizes of at least "
              + (minBytes >> 20)
              + " MiB to fit (run nccl-tests up to 1 GiB or more: -b 1M -e 1G -f 2)");
    }
    double det = saa * sxx - sax * sax;
    double h;
    double beta;
    if (Math.abs(det) < 1e-12 * saa * sxx) {
      h = 0;
      beta = sxy / sxx;
    } else {
      h = (say * sxx - sax * sxy) / det;
      beta = (saa * sxy - sax * say) / det;
      if (h < 0) {
        h = 0;
        beta = sxy / sxx;
      }
    }
    if (!(beta > 0)) {
      throw new InputProblem(name + ": times do not grow with size; cannot fit a bandwidth");
    }
    double busBw = 1 / beta;
    double sq = 0;
    double max = 0;
    for (CalibrationPoint p : points) {
      if (!usable(p)) {
        continue;
      }
      double t = base + hops(p) * h + x(p) / busBw;
      double rel = (t - p.timeUs()) / p.timeUs();
      sq += rel * rel;
      max = Math.max(max, Math.abs(rel));
    }
    return new PathFit(path, busBw, h, used, Math.sqrt(sq / used), max, List.copyOf(files), gpu);
  }

  private boolean usable(CalibrationPoint p) {
    return p.bytes() >= minBytes
        && p.op() != CollectiveOp.ALL_TO_ALL
        && p.ranks() > 1
        && p.timeUs() > 0;
  }

  /** Ring hops NCCL's latency counts for the collective. */
  static int hops(CalibrationPoint p) {
    return switch (p.op()) {
      case BROADCAST, REDUCE -> 1;
      default -> p.op().ringSteps(p.ranks());
    };
  }

  /** Bytes the slowest link carries per unit bandwidth, in us x GB/s. */
  static double x(CalibrationPoint p) {
    return p.bytes() * (double) p.op().ringSteps(p.ranks()) / p.ranks() / 1000.0;
  }
}
