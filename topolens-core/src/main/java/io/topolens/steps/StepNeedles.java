package io.topolens.steps;

import java.util.List;

/**
 * The step-time formats' needles ({@link StepFormat#needles}: {@link StepTimeReader#NEEDLES}, in
 * this order) and which of them a line holds, as a bit set ({@code 1L << index}). The NCCL reader
 * finds them on a block's bytes as it picks the wanted lines, so a format tests a bit instead of
 * searching the line again, is not asked about a line holding none of its needles, and searches for
 * its longer strings only in lines holding the needle they contain ({@code , skipped=} only where
 * {@code step} is).
 */
final class StepNeedles {
  private StepNeedles() {}

  static final int TOTAL = 0;
  static final int TRAIN = 1;
  static final int LOSS_DICT = 2;
  static final int PERCENT_BAR = 3;
  static final int STEP = 4;
  static final int TIME = 5;
  static final int LOCAL_BATCH = 6;

  /** Every needle, at its index. */
  static final List<String> ALL =
      List.of("Total ", "train_", "{'loss'", "%|", "step", "time", "local batch size");

  /** DeepSpeed's steps_per_print line's literal. */
  static final int SKIPPED = 7;

  /** DeepSpeed's wall_clock_breakdown timers' literal. */
  static final int TIMERS = 8;

  /** Megatron's literal. */
  static final int ITERATION = 9;

  /** torchtitan's step line's literal. */
  static final int LOSS = 10;

  /** A JSON object's start. */
  static final int BRACE = 11;

  /**
   * Literals the formats look for in a wanted line before reading it further, at their indexes
   * after the needles': they make no line wanted, but the NCCL reader finds them with the needles
   * on a block's bytes ({@link io.topolens.nccl.OtherLines#marks}), where one absent from a window
   * of lines costs one search for the window: most wanted lines hold none of them, and a search of
   * each line for each was a fifth of the formats' time on the mixed 1 GiB log.
   */
  static final List<String> MARKS =
      List.of(DeepSpeedLines.SKIPPED, "time (ms) |", "iteration", "loss:", "{");

  /** Which needles a line holds, searched one by one. */
  static long of(String text) {
    long found = 0;
    for (int i = 0; i < ALL.size(); i++) {
      if (text.contains(ALL.get(i))) {
        found |= 1L << i;
      }
    }
    return found;
  }

  /** Which {@link #MARKS} a line holds, searched one by one (at their bits). */
  static long marks(String text) {
    long found = 0;
    for (int i = 0; i < MARKS.size(); i++) {
      if (text.contains(MARKS.get(i))) {
        found |= 1L << (ALL.size() + i);
      }
    }
    return found;
  }

  /** Whether {@code found} holds the needle at {@code index}. */
  static boolean has(long found, int index) {
    return (found & 1L << index) != 0;
  }

  /** The set of these needles (each one of {@link #ALL}). */
  static long set(List<String> needles) {
    if (ALL.size() != SKIPPED || MARKS.size() != BRACE - SKIPPED + 1) {
      throw new IllegalStateException("the marks' indexes do not follow the needles'");
    }
    long s = 0;
    for (String n : needles) {
      int i = ALL.indexOf(n);
      if (i < 0) {
        throw new IllegalArgumentException(n + " is not one of the step needles");
      }
      s |= 1L << i;
    }
    return s;
  }
}
