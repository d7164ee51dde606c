package io.topolens.nccl;

import java.util.ArrayList;
import java.util.List;

/**
 * Lines of programs other than NCCL that readers beside the NCCL reader want from the same pass
 * over the logs (a training framework's step times, its exceptions): the needles such a line
 * contains and where the lines go. The NCCL reader hands every line holding a needle, and no NCCL
 * header, to the sink, in file order, with its file and line number, escapes removed.
 *
 * @param needles strings one of which a wanted line contains
 * @param sink receives the wanted lines; called from one thread at a time
 */
public record OtherLines(List<String> needles, Sink sink) {

  /**
   * Where wanted lines go. A sink may also read each line where it is found, on the NCCL reader's
   * parse threads ({@link #read}: stateless, thread-safe), and is handed what that gave with the
   * line, in file order.
   */
  @FunctionalInterface
  public interface Sink {
    void line(String file, long line, String text);

    /** What the sink wants to know of a line, worked out on a parse thread; null by default. */
    default Object read(String text) {
      return null;
    }

    /**
     * {@link #read(String)} of a line whose needles are known, found on the block's bytes: bit i of
     * {@code needles} set when it holds the i-th of {@link OtherLines#needles} (of the first 64).
     */
    default Object read(String text, long needles) {
      return read(text);
    }

    /** A wanted line with what {@link #read} gave for it. */
    default void line(String file, long line, String text, Object read) {
      line(file, line, text);
    }
  }

  /** No other lines wanted. */
  public static final OtherLines NONE = new OtherLines(List.of(), (f, l, t) -> {});

  public OtherLines {
    needles = List.copyOf(needles);
    for (String n : needles) {
      if (n.isEmpty() || !n.chars().allMatch(c -> c < 0x80 && c != '\n')) {
        // they are searched on the bytes, and told a line's text holds them
        throw new IllegalArgumentException("a needle must be ASCII without line breaks: " + n);
      }
    }
  }

  /** Which of the first 64 {@link #needles} a line holds, searched one by one (bit i: the i-th). */
  public long holds(String text) {
    long found = 0;
    for (int i = 0; i < Math.min(needles.size(), Long.SIZE); i++) {
      if (text.contains(needles.get(i))) {
        found |= 1L << i;
      }
    }
    return found;
  }

  /** Both readers' lines: the needles of each, every wanted line to both sinks. */
  public OtherLines and(OtherLines other) {
    List<String> all = new ArrayList<>(needles);
    other.needles.stream().filter(n -> !all.contains(n)).forEach(all::add);
    Sink a = sink;
    Sink b = other.sink;
    int[] ofA = needles.stream().mapToInt(all::indexOf).toArray();
    int[] ofB = other.needles.stream().mapToInt(all::indexOf).toArray();
    return new OtherLines(
        all,
        new Sink() {
          @Override
          public void line(String file, long line, String text) {
            a.line(file, line, text);
            b.line(file, line, text);
          }

          @Override
          public Object read(String text) {
            return new Object[] {a.read(text), b.read(text)};
          }

          @Override
          public Object read(String text, long found) {
            if (all.size() > Long.SIZE) {
              return read(text); // the bits name only the first 64
            }
            return new Object[] {a.read(text, bits(found, ofA)), b.read(text, bits(found, ofB))};
          }

          @Override
          public void line(String file, long line, String text, Object read) {
            Object[] both = (Object[]) read;
            a.line(file, line, text, both[0]);
            b.line(file, line, text, both[1]);
          }
        });
  }

  /** A sink's own bits of the bits of both needle lists: its i-th needle is {@code at[i]} there. */
  private static long bits(long found, int[] at) {
    long own = 0;
    for (int i = 0; i < at.length; i++) {
      if ((found & 1L << at[i]) != 0) {
        own |= 1L << i;
      }
    }
    return own;
  }
}
