package io.topolens.cli;

import io.topolens.inputs.Inputs;
import io.topolens.model.InputFile;
import java.io.PrintWriter;

/** Reports inputs that could not be read, one stderr line each. */
final class InputProblems {
  private InputProblems() {}

  /** Prints every unreadable input; true when there was one. */
  static boolean report(Inputs in, PrintWriter err) {
    boolean bad = false;
    for (String p : in.problems()) {
      err.println("topolens: " + p);
      bad = true;
    }
    for (InputFile f : in.job().inputs()) {
      if (f.problem() != null) {
        err.println("topolens: " + f.name() + ": " + f.problem());
        bad = true;
      }
    }
    return bad;
  }

  /** Whether an input was already reported as unreadable (binary, UTF-16, empty...). */
  static boolean unreadable(Inputs in, String name) {
    return in.job().inputs().stream().anyMatch(f -> f.name().equals(name) && f.problem() != null);
  }
}
