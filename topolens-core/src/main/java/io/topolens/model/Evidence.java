package io.topolens.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * One input line a fact was read from: the file, its 1-based line number and its text; or, with
 * line 0, a fact that is no line of a file (a node as the cluster describes it), named by {@code
 * file}.
 *
 * <p>The text is held as a String, or kept deflated in a {@link LineTexts} (the reader's evidence
 * of every rank of a big job: a String each would take most of a 256 MiB heap at 68,000 ranks) and
 * read back when asked for. Either way the evidence is a value: equal, hashed and printed by its
 * text, as the record it was ({@code RankIdTest}), and written and read as JSON as the record was
 * (an experiment's results: {@code file}, {@code line}, {@code text}).
 */
@JsonPropertyOrder({"file", "line", "text"})
public final class Evidence {
  private final String file;
  private final long line;

  /** The text, or the {@link LineTexts} that keeps it under {@link #ref}. */
  private final Object body;

  /** The text's reference in its {@link LineTexts}, packed into an int (32 bytes an evidence). */
  private final int ref;

  @JsonCreator
  public Evidence(
      @JsonProperty("file") String file,
      @JsonProperty("line") long line,
      @JsonProperty("text") String text) {
    this.file = file;
    this.line = line;
    this.body = text;
    this.ref = 0;
  }

  /**
   * Evidence whose text is kept in {@code texts} under {@code ref}, packed by {@link
   * LineTexts#evidence}.
   */
  Evidence(String file, long line, LineTexts texts, int ref) {
    this.file = file;
    this.line = line;
    this.body = texts;
    this.ref = ref;
  }

  /** The file's name as the inputs name it. */
  @JsonProperty("file")
  public String file() {
    return file;
  }

  /** The 1-based line number, or 0 for a fact that is no line of a file. */
  @JsonProperty("line")
  public long line() {
    return line;
  }

  /** The line's text. */
  @JsonProperty("text")
  public String text() {
    return body instanceof LineTexts texts ? texts.get(LineTexts.unpacked(ref)) : (String) body;
  }

  /** {@code file:line}, or the file's name alone for line 0. */
  public String where() {
    return line > 0 ? file + ":" + line : file;
  }

  @Override
  public String toString() {
    return where() + ": " + text();
  }

  /** Equal where file, line and text are, however the text is held. */
  @Override
  public boolean equals(Object o) {
    return o == this
        || o instanceof Evidence e
            && line == e.line
            && Objects.equals(file, e.file)
            && Objects.equals(text(), e.text());
  }

  /** The hash a record of (file, line, text) has: {@code RankIdTest} holds it equal. */
  @Override
  public int hashCode() {
    return (Objects.hashCode(file) * 31 + Long.hashCode(line)) * 31 + Objects.hashCode(text());
  }
}
