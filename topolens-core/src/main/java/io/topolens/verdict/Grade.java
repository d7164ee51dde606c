package io.topolens.verdict;

import io.topolens.diagnose.Severity;

/** How a benchmark's peak compares with what its path should deliver. */
public enum Grade {
  /** At or above the healthy fraction of the path's rate. */
  HEALTHY(Severity.INFO),
  /** Below the healthy fraction but above the warning floor. */
  BELOW(Severity.WARN),
  /** Below the warning floor: something is wrong with the path. */
  FAR_BELOW(Severity.ERROR),
  /** It ran on a slower kind of path than the hardware offers (SHM or TCP where NVLink is). */
  SLOWER_PATH(Severity.ERROR),
  /** Nothing known bounds the path (TCP), or the hardware is unknown: no judgement. */
  UNJUDGED(Severity.INFO);

  private final Severity severity;

  Grade(Severity severity) {
    this.severity = severity;
  }

  public Severity severity() {
    return severity;
  }

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
