package io.topolens.steps;

import java.util.List;

/**
 * One framework's step-time lines. Called for every line that holds one of its needles, in file
 * order; it records what it finds in the file's {@link FileSteps} and never judges.
 */
interface StepFormat {
  /**
   * Short strings one of which every line of this format contains: a cheap filter before parsing,
   * checked on every line that is not NCCL's, so few and short.
   */
  List<String> needles();

  /** Reads one line; a line of another form is left alone. */
  void read(String text, FileSteps file);
}
