package io.topolens.model;

/**
 * One input line a fact was read from: the file, its 1-based line number and its text; or, with
 * line 0, a fact that is no line of a file (a node as the cluster describes it), named by {@code
 * file}.
 */
public record Evidence(String file, long line, String text) {

  /** {@code file:line}, or the file's name alone for line 0. */
  public String where() {
    return line > 0 ? file + ":" + line : file;
  }

  @Override
  public String toString() {
    return where() + ": " + text;
  }
}
