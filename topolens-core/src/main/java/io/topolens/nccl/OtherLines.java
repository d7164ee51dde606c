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

  /** Where wanted lines go. */
  @FunctionalInterface
  public interface Sink {
    void line(String file, long line, String text);
  }

  /** No other lines wanted. */
  public static final OtherLines NONE = new OtherLines(List.of(), (f, l, t) -> {});

  public OtherLines {
    needles = List.copyOf(needles);
  }

  /** Both readers' lines: the needles of each, every wanted line to both sinks. */
  public OtherLines and(OtherLines other) {
    List<String> all = new ArrayList<>(needles);
    other.needles.stream().filter(n -> !all.contains(n)).forEach(all::add);
    Sink a = sink;
    Sink b = other.sink;
    return new OtherLines(
        all,
        (f, l, t) -> {
          a.line(f, l, t);
          b.line(f, l, t);
        });
  }
}
