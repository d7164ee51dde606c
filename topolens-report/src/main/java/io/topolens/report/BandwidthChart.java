package io.topolens.report;

import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import io.topolens.verdict.BenchVerdict;
import io.topolens.verdict.Expectation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * busbw against message size for the runs of one collective, overlaid, with the catalog's rate of
 * each path the runs were judged against and its healthy band. Both axes are logarithmic so that a
 * 4 GB/s socket run and a 400 GB/s NVLink run read on one chart.
 *
 * @param collective the nccl-tests collective (all_reduce...), or "collective not named"
 * @param series one per run, in input order
 * @param rates the expectations the runs were judged against, distinct
 */
public record BandwidthChart(
    String collective, List<Series> series, List<Rate> rates, LogAxis x, LogAxis y) {

  /** Plot area, in pixels of the SVG's view box. */
  public static final double LEFT = 64;

  public static final double RIGHT = 620;
  public static final double TOP = 16;
  public static final double BOTTOM = 300;

  /** Okabe and Ito's colours (yellow left out: it fades on white and in print). */
  static final String[] COLOURS = {
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"
  };

  /**
   * One run's points.
   *
   * @param marker 0 circle, 1 square, 2 diamond, 3 triangle: a second cue beside colour
   */
  public record Series(String name, String colour, int marker, List<Point> points) {

    /** The polyline through the points. */
    public String line() {
      StringBuilder s = new StringBuilder();
      for (Point p : points) {
        s.append(s.isEmpty() ? "" : " ").append(p.x()).append(',').append(p.y());
      }
      return s.toString();
    }

    /** The SVG path of a marker at a point. */
    public String markerAt(Point p) {
      double x = Double.parseDouble(p.x());
      double y = Double.parseDouble(p.y());
      return switch (marker % 4) {
        case 0 -> "M" + Num.px(x - 3.5) + " " + p.y() + "a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0 -7 0";
        case 1 -> "M" + Num.px(x - 3) + " " + Num.px(y - 3) + "h6v6h-6z";
        case 2 -> "M" + p.x() + " " + Num.px(y - 4.5) + "l4.5 4.5l-4.5 4.5l-4.5 -4.5z";
        default -> "M" + p.x() + " " + Num.px(y - 4.5) + "l4.5 8h-9z";
      };
    }
  }

  /** One measured size: where it sits and what it says, with its line in the input. */
  public record Point(String x, String y, String title) {}

  /**
   * A path's rate from the catalog and the band a healthy run reaches.
   *
   * @param healthyY the pixel of the healthy fraction of the rate, or null when the path has none
   */
  public record Rate(String label, String y, String healthyY, String basis) {}

  /** One chart per collective, runs overlaid, in the order the runs came. */
  public static List<BandwidthChart> of(List<BenchVerdict> verdicts) {
    Map<String, List<BenchVerdict>> byCollective = new LinkedHashMap<>();
    for (BenchVerdict v : verdicts) {
      if (v.run().rows().isEmpty()) {
        continue;
      }
      String c =
          v.run().collective() == null ? "collective not named" : v.run().collective().testName();
      byCollective.computeIfAbsent(c, k -> new ArrayList<>()).add(v);
    }
    List<BandwidthChart> out = new ArrayList<>();
    byCollective.forEach((c, vs) -> out.add(chart(c, vs)));
    return out;
  }

  private static BandwidthChart chart(String collective, List<BenchVerdict> vs) {
    List<Double> sizes = new ArrayList<>();
    List<Double> rates = new ArrayList<>();
    Map<String, Expectation> expected = new LinkedHashMap<>();
    for (BenchVerdict v : vs) {
      for (BenchRow r : v.run().rows()) {
        if (r.outOfPlace() != null && r.outOfPlace().busBw() > 0) {
          sizes.add((double) r.bytes());
          rates.add(r.outOfPlace().busBw());
        }
      }
      Expectation e = v.expected();
      if (e != null && e.rateGBps() != null) {
        expected.putIfAbsent(e.path().label() + "|" + e.rateGBps(), e);
        rates.add(e.rateGBps());
      }
    }
    LogAxis x = LogAxis.around(sizes, LEFT, RIGHT, 2, 4);
    LogAxis y = LogAxis.around(rates, BOTTOM, TOP, 10, 1);
    List<Series> series = new ArrayList<>();
    for (BenchVerdict v : vs) {
      BenchRun run = v.run();
      List<Point> points = new ArrayList<>();
      for (BenchRow r : run.rows()) {
        if (r.outOfPlace() == null || !(r.outOfPlace().busBw() > 0)) {
          // a log scale has no zero: sizes too small to register (busbw 0.00) stay in the table
          continue;
        }
        double bw = r.outOfPlace().busBw();
        points.add(
            new Point(
                x.px(r.bytes()),
                y.px(bw),
                run.file()
                    + ": "
                    + Num.bytes(r.bytes())
                    + ", busbw "
                    + Num.sig(bw)
                    + " GB/s (line "
                    + r.evidence().line()
                    + ")"));
      }
      int i = series.size();
      series.add(new Series(run.file(), COLOURS[i % COLOURS.length], i, points));
    }
    List<Rate> lines = new ArrayList<>();
    for (Expectation e : expected.values()) {
      Double healthy = e.spec() == null ? null : e.spec().healthyFraction();
      lines.add(
          new Rate(
              e.path().label() + " " + Num.sig(e.rateGBps()) + " GB/s",
              y.px(e.rateGBps()),
              healthy == null ? null : y.px(healthy * e.rateGBps()),
              e.basis()
                  + (healthy == null
                      ? ""
                      : "; healthy at " + Math.round(healthy * 100) + "% of it or above")));
    }
    return new BandwidthChart(collective, series, lines, x, y);
  }

  public List<LogAxis.Tick> xTicks() {
    return x.ticks(Num::bytes);
  }

  public List<LogAxis.Tick> yTicks() {
    return y.ticks(Num::sig);
  }

  public String title() {
    return collective + ": bus bandwidth against message size, " + series.size() + " run(s)";
  }

  /** What the chart shows, for a screen reader. */
  public String description() {
    List<String> parts = new ArrayList<>();
    for (Series s : series) {
      parts.add(s.name() + " (" + s.points().size() + " sizes with a busbw above zero)");
    }
    return "Log-log chart of busbw in GB/s by message size for "
        + String.join(", ", parts)
        + (rates.isEmpty()
            ? "."
            : "; dashed lines mark the catalog rate of "
                + String.join(", ", rates.stream().map(Rate::label).toList())
                + ", shaded from the healthy fraction up.");
  }

  public String left() {
    return Num.px(LEFT);
  }

  public String right() {
    return Num.px(RIGHT);
  }

  public String top() {
    return Num.px(TOP);
  }

  public String bottom() {
    return Num.px(BOTTOM);
  }
}
