package io.topolens.nccl;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Lines of programs other than NCCL that readers beside the NCCL reader want from the same pass
 * over the logs (a training framework's step times, its exceptions): the needles such a line
 * contains and where the lines go. The NCCL reader hands every line holding a needle, and no NCCL
 * header, to the sink, in file order, with its file and line number, escapes removed.
 *
 * @param needles strings one of which a wanted line contains
 * @param marks strings the sink wants to know whether a wanted line holds (told with the needles,
 *     after them), which do not make a line wanted: found on the block's bytes, where a string
 *     absent from a window of lines costs one search for the window instead of one per line
 * @param sink receives the wanted lines; called from one thread at a time
 */
public record OtherLines(List<String> needles, List<String> marks, Sink sink) {

  /**
   * Where a slice's wanted lines are: the input's name, its path when it can be read again (a
   * regular file, not compressed; else null), the number of the line before the slice's first, and
   * the place of the slice's first byte in the input (so a line's place is this plus its start).
   */
  public record At(String file, Path again, long line, long offset) {}

  /**
   * The wanted lines of one slice of an input, told on the parse thread that reads the slice, in
   * order; handed back to {@link Sink#lines} in file order.
   */
  public interface Slice {
    /**
     * A wanted line: its bytes are {@code [start, end)} of the slice; {@code text} is its text when
     * escape sequences or carriage returns were removed from them, else null (the text is the bytes
     * as UTF-8); bit i of {@code needles} is set when it holds the i-th of {@link #needles}, then
     * of {@link #marks}.
     */
    void line(int line, int start, int end, String text, long needles);
  }

  /**
   * Where wanted lines go. A sink may read each slice's lines where the slice is parsed ({@link
   * #slice}, on the NCCL reader's parse threads: stateless apart from the slice's own record), and
   * is handed what it gathered in file order ({@link #lines}); by default it gathers the lines'
   * texts and is handed each to {@link #line}.
   */
  @FunctionalInterface
  public interface Sink {
    void line(String file, long line, String text);

    /**
     * A new record of one slice's wanted lines: {@code view} is the slice's bytes as Latin-1 (a
     * character a byte), which neither may change.
     */
    default Slice slice(String view, byte[] bytes) {
      return new Texts(bytes);
    }

    /** A slice's wanted lines, in file order, with where they are. */
    default void lines(At at, Slice slice) {
      Texts t = (Texts) slice;
      for (int i = 0; i < t.texts.size(); i++) {
        line(at.file(), at.line() + t.lines.get(i), t.texts.get(i));
      }
    }
  }

  /** The default record of a slice's wanted lines: their numbers and texts. */
  private static final class Texts implements Slice {
    private final byte[] bytes;
    private final List<Integer> lines = new ArrayList<>();
    private final List<String> texts = new ArrayList<>();

    Texts(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public void line(int line, int start, int end, String text, long needles) {
      lines.add(line);
      texts.add(
          text != null ? text : new String(bytes, start, end - start, StandardCharsets.UTF_8));
    }
  }

  /** No other lines wanted. */
  public static final OtherLines NONE = new OtherLines(List.of(), (f, l, t) -> {});

  /** Lines holding one of {@code needles}, with no marks. */
  public OtherLines(List<String> needles, Sink sink) {
    this(needles, List.of(), sink);
  }

  public OtherLines {
    needles = List.copyOf(needles);
    marks = List.copyOf(marks);
    if (needles.size() + marks.size() > Long.SIZE) {
      throw new IllegalArgumentException("more than 64 needles and marks: they are told as bits");
    }
    for (String n : searched(needles, marks)) {
      if (n.isEmpty() || !n.chars().allMatch(c -> c < 0x80 && c != '\n')) {
        // they are searched on the bytes, and told a line's text holds them
        throw new IllegalArgumentException("a needle must be ASCII without line breaks: " + n);
      }
    }
  }

  /** The needles, then the marks: what a line is searched for, bit i for the i-th. */
  List<String> searched() {
    return searched(needles, marks);
  }

  private static List<String> searched(List<String> needles, List<String> marks) {
    List<String> all = new ArrayList<>(needles);
    all.addAll(marks);
    return all;
  }

  /** The bits of the needles: a line is wanted when it holds one. */
  long wanting() {
    return needles.size() == Long.SIZE ? -1L : (1L << needles.size()) - 1;
  }

  /**
   * Which {@link #needles}, then {@link #marks}, a line holds, searched one by one (bit i: the
   * i-th).
   */
  public long holds(String text) {
    List<String> all = searched();
    long found = 0;
    for (int i = 0; i < all.size(); i++) {
      if (text.contains(all.get(i))) {
        found |= 1L << i;
      }
    }
    return found;
  }
}
