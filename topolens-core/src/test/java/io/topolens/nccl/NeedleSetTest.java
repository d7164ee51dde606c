package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link NeedleSet} finds every place where each needle starts, as a search per needle finds them:
 * on real logs, on text made of needles' pieces, and line by line as the filter asks (a window of
 * lines at a time).
 */
class NeedleSetTest {
  private static final NeedleSet ALL = new NeedleSet(Needles.ALL);

  static Stream<String> logs() throws IOException {
    List<String> files = new ArrayList<>();
    for (String dir : List.of("public", "seeds", "nccl/heldout", "fixtures/h200x4/verbose")) {
      try (Stream<Path> s = Files.walk(Fixtures.path(dir))) {
        s.filter(p -> p.toString().endsWith(".log")).forEach(p -> files.add(p.toString()));
      }
    }
    assertThat(files).hasSizeGreaterThan(50);
    return files.stream();
  }

  @ParameterizedTest
  @MethodSource("logs")
  void findsWhatASearchPerNeedleFindsInRealLogs(String file) throws IOException {
    byte[] b = Files.readAllBytes(Path.of(file));

    assertThat(found(ALL, b, 0, b.length)).isEqualTo(searched(Needles.ALL, b, 0, b.length));
  }

  @ParameterizedTest
  @MethodSource("logs")
  void answersLineAfterLineWhatASearchPerNeedleAnswers(String file) throws IOException {
    byte[] b = Files.readAllBytes(Path.of(file));
    String block = new String(b, StandardCharsets.ISO_8859_1);
    NeedleSet.Hits hits = ALL.lines(b, block);
    int start = 0;
    int asked = 0;
    for (int line = 0; start < b.length; line++) {
      int end = block.indexOf('\n', start);
      end = end < 0 ? b.length : end;
      if (line % 3 != 1) { // some lines never asked about, as the filter skips NCCL's own
        String text = block.substring(start, end);
        int expected = -1;
        for (int i = Needles.ALL.size() - 1; i >= 0; i--) {
          expected = text.contains(Needles.ALL.get(i)) ? i : expected;
        }
        assertThat(hits.first(start, end)).as("line %d", line + 1).isEqualTo(expected);
        assertThat(hits.at())
            .isEqualTo(expected < 0 ? -1 : start + text.indexOf(Needles.ALL.get(expected)));
        asked++;
      }
      start = end + 1;
    }
    assertThat(asked).isPositive();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void findsWhatASearchPerNeedleFindsInTextOfNeedlePieces(int seed) {
    // needles cut at every place, overlapping and back to back, with bytes between
    Random r = new Random(seed);
    StringBuilder text = new StringBuilder();
    while (text.length() < 200_000) {
      String n = Needles.ALL.get(r.nextInt(Needles.ALL.size()));
      int from = r.nextInt(3) == 0 ? r.nextInt(n.length()) : 0;
      int to = r.nextInt(3) == 0 ? from + r.nextInt(n.length() - from + 1) : n.length();
      text.append(n, from, to);
      if (r.nextBoolean()) {
        text.append(" \nLé:-9".charAt(r.nextInt(7)));
      }
    }
    byte[] b = text.toString().getBytes(StandardCharsets.ISO_8859_1);
    int from = r.nextInt(100);
    int to = b.length - r.nextInt(100);

    List<String> expected = searched(Needles.ALL, b, from, to);
    assertThat(expected).hasSizeGreaterThan(1000);
    assertThat(found(ALL, b, from, to)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "`host:1:2 [0] NCCL INFO x` | 0 | 13",
        "`[E ProcessGroupNCCL.cpp:4] NCCL error` | 0 | 27",
        "`WorkNCCL(SeqNum=1)` | 1 | 4",
        "`ncclSystemError: Last error:` | 2 | 0",
        "`Last error:` | 3 | 0",
        "`x exitcode: -9 (SIGKILL)` | 15 | 2",
        "`Signal 9 (SIGKILL) received by PID 36071` | 16 | 17",
        "`host:1:2 [6] INFO Ring 00 : 6[6] -> 10[2] via P2P/IPC` | 6 | 11",
        "`no needle at all, NCC L, ncc` | -1 | -1"
      })
  void answersTheLowestNeedleOfALine(String line, int needle, int at) {
    byte[] b = ("before NCCL \n" + line + "\nafter nccl\n").getBytes(StandardCharsets.ISO_8859_1);
    NeedleSet.Hits hits = ALL.scan(b, 0, b.length);
    int start = 13;
    int end = start + line.length();

    assertThat(hits.first(0, 12)).isEqualTo(0);
    assertThat(hits.first(start, end)).isEqualTo(needle);
    assertThat(hits.at()).isEqualTo(at < 0 ? -1 : start + at);
    assertThat(hits.first(end + 1, b.length)).isEqualTo(2);
  }

  private static List<String> found(NeedleSet set, byte[] b, int from, int to) {
    NeedleSet.Hits hits = set.scan(b, from, to);
    List<String> found = new ArrayList<>();
    for (int i = 0; i < hits.size(); i++) {
      found.add(hits.place(i) + ":" + hits.needle(i));
    }
    return found;
  }

  /** Every start of every needle in {@code b[from, to)}, by place, then needle. */
  private static List<String> searched(List<String> needles, byte[] b, int from, int to) {
    String text = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    List<long[]> all = new ArrayList<>();
    for (int i = 0; i < needles.size(); i++) {
      for (int at = text.indexOf(needles.get(i));
          at >= 0;
          at = text.indexOf(needles.get(i), at + 1)) {
        all.add(new long[] {from + at, i});
      }
    }
    all.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
    return all.stream().map(x -> x[0] + ":" + x[1]).toList();
  }
}
