package io.topolens.perf;

/**
 * One part of the predicted step time.
 *
 * @param kind what the time is spent on
 * @param label short name, e.g. {@code all_gather (forward)}
 * @param seconds seconds per optimizer step that this part adds to the step
 * @param detail the arithmetic behind it
 */
public record Term(Kind kind, String label, double seconds, String detail) {

  /** What a term's time is spent on. */
  public enum Kind {
    COMPUTE,
    OVERHEAD,
    COMMUNICATION,
    OFFLOAD_TRANSFER,
    CPU_OPTIMIZER
  }
}
