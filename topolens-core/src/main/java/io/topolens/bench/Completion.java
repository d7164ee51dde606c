package io.topolens.bench;

/** How far a run's output goes. */
public enum Completion {
  /** The summary ({@code Avg bus bandwidth}) was printed. */
  COMPLETE,
  /** The table ended without the summary, and nothing says it was cut short (an excerpt). */
  NO_SUMMARY,
  /**
   * The output stops mid-table (a partial row, or sizes up to {@code maxBytes} still due) or an
   * error or abort line follows the last row; the rows printed so far are kept.
   */
  ABORTED
}
