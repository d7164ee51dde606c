package io.topolens.bench;

import java.util.Map;

/**
 * The sizes a run sweeps, from its parameters: {@code minBytes} up to {@code maxBytes} (or the
 * reduced maximum), times the step factor or plus the step bytes, as nccl-tests' loop runs them.
 * Printed sizes can be rounded down to whole elements per rank, so a printed size is matched to the
 * loop size it came from.
 */
record SizeSweep(long min, long max, long factor, long stepBytes) {

  /** The sweep, or null when the parameters do not give one. */
  static SizeSweep of(Map<String, String> p) {
    Long min = longValue(p.get("minBytes"));
    Long max = longValue(p.get("maxBytes"));
    Long reduced = longValue(p.get("reducedMaxBytes"));
    String step = p.get("step");
    if (min == null || max == null || step == null) {
      return null;
    }
    if (reduced != null && reduced < max) {
      max = reduced;
    }
    int paren = step.indexOf('(');
    Long amount = longValue(paren < 0 ? step : step.substring(0, paren));
    if (amount == null || amount < 1) {
      return null;
    }
    boolean byFactor = step.contains("factor");
    if (byFactor && amount < 2) {
      return null;
    }
    return new SizeSweep(min, max, byFactor ? amount : 0, byFactor ? 0 : amount);
  }

  /**
   * The loop size after the one that printed {@code printed}, or -1 when the sweep ends there. With
   * {@code minBytes 0} and a factor the loop never grows; nccl-tests then runs one size.
   */
  long nextAfter(long printed) {
    long s = min;
    for (int guard = 0; guard < 10_000; guard++) {
      long next = factor > 0 ? multiply(s, factor) : s + stepBytes;
      if (next <= s) {
        return -1;
      }
      if (s >= printed) {
        return next <= max ? next : -1;
      }
      s = next;
    }
    return -1;
  }

  private static long multiply(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /** A parameter's number as printed, or null where it is missing or not a number. */
  static Long longValue(String s) {
    if (s == null) {
      return null;
    }
    try {
      return Long.parseLong(s.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
