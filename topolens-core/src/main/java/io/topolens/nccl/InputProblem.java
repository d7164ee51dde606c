package io.topolens.nccl;

/** An input that cannot be read, with a message fit to show a user as it is. */
public final class InputProblem extends Exception {
  private static final long serialVersionUID = 1L;

  public InputProblem(String message) {
    super(message, null, false, false);
  }
}
