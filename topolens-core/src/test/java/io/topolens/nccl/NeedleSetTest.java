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
  @MethodSource("logs")
  void answersTheSameWhenTheScanStopsBeforeALineThatWillNotAsk(String file) throws IOException {
    byte[] b = Files.readAllBytes(Path.of(file));
    String block = new String(b, StandardCharsets.ISO_8859_1);
    List<int[]> lines = new ArrayList<>();
    for (int start = 0; start < b.length; ) {
      int end = block.indexOf('\n', start);
      end = end < 0 ? b.length : end;
      lines.add(new int[] {start, end});
      start = end + 1;
    }
    NeedleSet.Hits bounded = ALL.lines(b, block);
    NeedleSet.Hits whole = ALL.lines(b, block);
    int asked = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (i % 5 == 2 || i % 7 == 3) {
        continue; // lines never asked about, as the filter skips NCCL's own
      }
      int start = lines.get(i)[0];
      int end = lines.get(i)[1];
      // the end of the line before the next one that will not ask (as BlockParser tells it)
      int until = b.length;
      for (int j = i + 1; j < lines.size(); j++) {
        if (j % 5 == 2 || j % 7 == 3) {
          until = lines.get(j)[0] - 1;
          break;
        }
      }
      int expected = whole.first(start, end);
      assertThat(bounded.first(start, end, until)).as("line %d", i + 1).isEqualTo(expected);
      assertThat(bounded.at()).isEqualTo(whole.at());
      asked++;
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

  private static final List<String> TRAINING_LINES = trainingLines();

  /** The lowest needle of each of {@link #TRAINING_LINES}, or -1. */
  private static final int[] TRAINING_NEEDLES =
      TRAINING_LINES.stream().mapToInt(NeedleSetTest::lowest).toArray();

  private static List<String> trainingLines() {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> s = Files.list(Fixtures.path("public/steps"))) {
      for (Path p : s.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
        lines.addAll(Files.readAllLines(p, StandardCharsets.ISO_8859_1));
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    while (lines.stream().mapToInt(String::length).sum() < 40_000) {
      lines.addAll(List.copyOf(lines));
    }
    return List.copyOf(lines);
  }

  /** The index in {@link Needles#ALL} of the lowest needle a text holds, or -1. */
  private static int lowest(String text) {
    for (int n = 0; n < Needles.ALL.size(); n++) {
      if (text.contains(Needles.ALL.get(n))) {
        return n;
      }
    }
    return -1;
  }

  /** Every needle of the filter, then every failure text NCCL prints (each holds one of them). */
  static Stream<String> needlesAndFailureTexts() {
    return Stream.concat(
        Needles.ALL.stream(), NcclFailureTexts.ALL.stream().map(NcclFailureTexts.Text::literal));
  }

  @ParameterizedTest
  @MethodSource("needlesAndFailureTexts")
  void findsEachNeedleAndFailureTextAtRandomPlacesOfTrainingLines(String needle) {
    // training jobs' own lines (about 40 KB, so windows and the scan's four quarters are crossed),
    // the needle put into a random line at its start, its end and a random place
    List<String> lines = TRAINING_LINES;
    Random r = new Random(needle.hashCode());
    for (int k = 0; k < 3; k++) {
      List<String> text = new ArrayList<>(lines);
      int line = r.nextInt(text.size());
      String l = text.get(line);
      int at = k == 0 ? 0 : k == 1 ? l.length() : r.nextInt(l.length() + 1);
      text.set(line, l.substring(0, at) + needle + l.substring(at));
      byte[] b = (String.join("\n", text) + "\n").getBytes(StandardCharsets.ISO_8859_1);
      String block = new String(b, StandardCharsets.ISO_8859_1);
      NeedleSet.Hits hits = ALL.lines(b, block);
      int start = 0;
      for (int i = 0; i < text.size(); i++) {
        int end = start + text.get(i).length();
        int expected = i == line ? lowest(text.get(i)) : TRAINING_NEEDLES[i];
        int found = hits.first(start, end);
        assertThat(found).as("line %d, %s at %d", i + 1, needle, at).isEqualTo(expected);
        if (i == line) {
          assertThat(found).as("the line holding %s", needle).isNotNegative();
        }
        start = end + 1;
      }
    }
  }

  /**
   * A long needle is keyed by the eight of its bytes whose triples are least common in logs, not by
   * its first eight where those are a training job's words ({@code persiste}: the {@code ste} of
   * every {@code step}).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "persistentSocketThread | sistentS",
        "Duplicate GPU detected | PU detec",
        "`[missing ranks: ` | issing r",
        "Expected to have finished reduction in the prior iteration | prior it",
        "`docker run ` | `ker run `",
        "Last error: | Last err",
        "group.cc: | group.cc"
      })
  void keysANeedleByItsBytesLeastCommonInLogs(String needle, String key) {
    assertThat(Needles.ALL).contains(needle);
    byte[] n = needle.getBytes(StandardCharsets.ISO_8859_1);
    int at = NeedleSet.window(n, NeedleSet.LONG, NeedleSet.commonTriples());
    assertThat(needle.substring(at, at + NeedleSet.LONG)).isEqualTo(key);
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
