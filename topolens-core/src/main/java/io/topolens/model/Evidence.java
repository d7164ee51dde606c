package io.topolens.model;

import java.util.Objects;

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

  /**
   * The record's own {@code equals}, written out: the generated one is linked at its first call by
   * {@code ObjectMethods} (method handles spun at run time, which the AOT cache does not hold).
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof Evidence e
        && line == e.line
        && Objects.equals(file, e.file)
        && Objects.equals(text, e.text);
  }

  /**
   * The record's own hash, written out (see {@link #equals}): {@code RankIdTest} holds it equal.
   */
  @Override
  public int hashCode() {
    return (Objects.hashCode(file) * 31 + Long.hashCode(line)) * 31 + Objects.hashCode(text);
  }
}
