package io.topolens.steps;

import java.nio.charset.StandardCharsets;

/**
 * A line as the step-time formats read it: a text, or a line of a parse slice read on its bytes
 * (the slice's Latin-1 view, one character a byte) without decoding it. Positions are the line's
 * own, from 0 to {@link #length()}: a text's characters, or the line's bytes. UTF-8 never puts an
 * ASCII byte inside another character, so a search for ASCII text, or an ASCII character's class,
 * answers alike on both; a format that reads more than ASCII's structure of a part (strips white
 * space, parses a number) takes that part's {@link #text(int, int)}, decoded exactly, cut at ASCII
 * characters or the line's ends.
 *
 * <p>Thread-safety: immutable (the slice's bytes are not changed while lines of it are read).
 */
final class StepLine implements CharSequence {
  /** The text, or the slice's Latin-1 view. */
  private final String view;

  /** The slice's bytes when the line is read on them, else null. */
  private final byte[] bytes;

  private final int start;
  private final int end;
  private String text;

  private StepLine(String view, byte[] bytes, int start, int end) {
    this.view = view;
    this.bytes = bytes;
    this.start = start;
    this.end = end;
  }

  /** A line given as its text. */
  static StepLine of(String text) {
    StepLine l = new StepLine(text, null, 0, text.length());
    l.text = text;
    return l;
  }

  /**
   * The line {@code [start, end)} of a slice, read on its bytes: {@code view} is the slice as
   * Latin-1 (a character a byte), the line holds no escape sequence or carriage return, and its
   * text is its bytes decoded as UTF-8.
   */
  static StepLine onBytes(String view, byte[] bytes, int start, int end) {
    return new StepLine(view, bytes, start, end);
  }

  @Override
  public int length() {
    return end - start;
  }

  @Override
  public char charAt(int i) {
    return view.charAt(start + i);
  }

  /** The part {@code [from, to)} decoded ({@link #text(int, int)}). */
  @Override
  public CharSequence subSequence(int from, int to) {
    return text(from, to);
  }

  /** The first {@code s} at or after {@code from}, whole within the line, or -1. */
  int indexOf(String s, int from) {
    if (from > length()) {
      return -1;
    }
    int at = view.indexOf(s, start + Math.max(from, 0), end);
    return at < 0 ? -1 : at - start;
  }

  int indexOf(String s) {
    return indexOf(s, 0);
  }

  /** The first {@code c} (ASCII) at or after {@code from}, or -1. */
  int indexOf(char c, int from) {
    if (from > length()) {
      return -1;
    }
    int at = view.indexOf(c, start + Math.max(from, 0), end);
    return at < 0 ? -1 : at - start;
  }

  boolean contains(String s) {
    return indexOf(s, 0) >= 0;
  }

  /** Whether {@code s} is at {@code at}, whole within the line. */
  boolean startsWith(String s, int at) {
    return at >= 0 && at + s.length() <= length() && view.startsWith(s, start + at);
  }

  /**
   * The text of {@code [from, to)}, decoded: {@code from} and {@code to} at ASCII characters or the
   * line's ends, so it is the same part of the line's text.
   */
  String text(int from, int to) {
    if (bytes == null) {
      return view.substring(start + from, start + to);
    }
    return new String(bytes, start + from, to - from, StandardCharsets.UTF_8);
  }

  /** The line's text. */
  String text() {
    if (text == null) {
      text = text(0, length());
    }
    return text;
  }

  @Override
  public String toString() {
    return text();
  }
}
