package io.topolens.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * A logarithmic axis: values between {@code min} and {@code max} onto pixels between {@code from}
 * and {@code to} (to may be below from, as a y axis is), with ticks at powers of {@code base}.
 */
public record LogAxis(double min, double max, double from, double to, double base, int every) {

  /** A tick: its pixel position and its label. */
  public record Tick(String at, String label) {}

  /** An axis spanning whole powers of {@code base} around the values (positive ones only). */
  static LogAxis around(List<Double> values, double from, double to, double base, int every) {
    double lo = Double.MAX_VALUE;
    double hi = 0;
    for (double v : values) {
      if (v > 0) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    if (hi == 0) {
      lo = 1;
      hi = base;
    }
    double pLo = Math.floor(Math.log(lo) / Math.log(base) + 1e-9);
    double pHi = Math.ceil(Math.log(hi) / Math.log(base) - 1e-9);
    if (pHi <= pLo) {
      pHi = pLo + 1;
    }
    return new LogAxis(Math.pow(base, pLo), Math.pow(base, pHi), from, to, base, every);
  }

  /** The pixel of a value; values at or below zero sit on the axis's low end. */
  double at(double v) {
    if (v <= 0) {
      return from;
    }
    double f = (Math.log(v) - Math.log(min)) / (Math.log(max) - Math.log(min));
    return from + f * (to - from);
  }

  public String px(double v) {
    return Num.px(at(v));
  }

  /** Every {@code every}-th power of the base between min and max, labelled by {@code label}. */
  public List<Tick> ticks(DoubleFunction<String> label) {
    List<Tick> out = new ArrayList<>();
    int lo = (int) Math.round(Math.log(min) / Math.log(base));
    int hi = (int) Math.round(Math.log(max) / Math.log(base));
    for (int p = lo; p <= hi; p++) {
      if (Math.floorMod(p, every) == 0) {
        double v = Math.pow(base, p);
        out.add(new Tick(Num.px(at(v)), label.apply(v)));
      }
    }
    return out;
  }
}
