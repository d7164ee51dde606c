package io.topolens.report;

import java.util.ArrayList;
import java.util.List;

/** A linear axis from zero: values onto pixels, with 1-2-5 ticks, about five of them. */
public record LinearAxis(double max, double from, double to, double tick) {

  /** An axis from 0 to a round value at or above {@code max}. */
  static LinearAxis upTo(double max, double from, double to) {
    double m = max > 0 ? max : 1;
    double raw = m / 5;
    double p = Math.pow(10, Math.floor(Math.log10(raw)));
    double tick = raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
    return new LinearAxis(Math.ceil(m / tick - 1e-9) * tick, from, to, tick);
  }

  public double at(double v) {
    return from + v / max * (to - from);
  }

  public String px(double v) {
    return Num.px(at(v));
  }

  /** The width in pixels of a span of {@code v}. */
  public String span(double v) {
    return Num.px(Math.abs(at(v) - at(0)));
  }

  public List<LogAxis.Tick> ticks() {
    List<LogAxis.Tick> out = new ArrayList<>();
    for (int i = 0; i * tick <= max + 1e-9; i++) {
      out.add(new LogAxis.Tick(px(i * tick), Num.sig(i * tick)));
    }
    return out;
  }
}
