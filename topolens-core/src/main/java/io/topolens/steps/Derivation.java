package io.topolens.steps;

/**
 * How a step time was obtained from a line, from the most direct to the least; a summary uses the
 * most direct kind its logs offer.
 */
public enum Derivation {
  /** The line printed the time of that one step (or the timed parts of it). */
  MEASURED("measured", "measured per step"),
  /** The mean over the steps between two lines: a printed average, or the lines' timestamps. */
  INTERVAL("interval", "mean over a logging interval"),
  /** Derived from a rate the line printed (s/it, it/s, samples/s with the batch size). */
  RATE("rate", "derived from a rate"),
  /** A total runtime divided by the number of steps. */
  TOTAL("total", "total runtime divided by steps"),
  /**
   * The sum of a step's timed parts (DeepSpeed's forward + backward + optimizer step): leaves out
   * data loading and whatever runs between them, so it is used only when nothing else is printed.
   */
  PARTS("parts", "sum of timed parts (forward + backward + step)");

  private final String id;
  private final String label;

  Derivation(String id, String label) {
    this.id = id;
    this.label = label;
  }

  public String id() {
    return id;
  }

  public String label() {
    return label;
  }
}
