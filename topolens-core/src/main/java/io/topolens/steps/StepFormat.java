package io.topolens.steps;

import java.util.List;

/**
 * One framework's step-time lines. Called for every line that holds one of its needles, on any
 * thread and in any order: it tells what it finds to a {@link StepSink} (the file's {@link
 * FileSteps}, or a {@link StepOps} applied to it later in file order), reads what earlier lines
 * gave only through {@link StepSink#whenApplied}, keeps no state and never judges.
 */
interface StepFormat {
  /**
   * Short strings one of which every line of this format contains: a cheap filter before parsing,
   * checked on every line that is not NCCL's, so few and short.
   */
  List<String> needles();

  /** The framework a line of this format is told as when its numbers cannot be read. */
  Framework framework();

  /**
   * Whether {@link #read} may find something in a wanted line that holds none of this format's
   * needles (but another's): false unless a format's form can be written without them.
   */
  default boolean readsEveryWantedLine() {
    return false;
  }

  /**
   * Reads one line; a line of another form is left alone.
   *
   * @param found which {@link StepNeedles} the line holds, and which of their marks
   */
  void read(StepLine line, long found, StepSink file);

  /**
   * {@link #read(StepLine, long, StepSink)} of a line given as its text, with the needles it holds
   * ({@link StepNeedles#of}): its marks are searched here.
   */
  default void read(String text, long found, StepSink file) {
    read(StepLine.of(text), found | StepNeedles.marks(text), file);
  }
}
