package io.topolens.model;

/** One input line a fact was read from: the file, its 1-based line number and its text. */
public record Evidence(String file, long line, String text) {

  @Override
  public String toString() {
    return file + ":" + line + ": " + text;
  }
}
