package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.steps.StepTimeReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Needles.Finder} answers, line after line, what a search of each line for each needle
 * answers, on real logs longer than its search window, whatever lines it is asked about.
 */
class NeedlesFinderTest {

  private static final List<String> LOGS =
      List.of(
          "fixtures/h200x4/verbose/fsdp-coll-subsys.log",
          "public/steps/deepspeed-accelerate-1589-timers-and-bar.log",
          "public/steps/hf-alignment-handbook-63-loss-dicts.log",
          "public/steps/megatron-756-iterations.log",
          "seeds/004-eks-g6e-efa-fallback.log");

  private static String text() throws IOException {
    StringBuilder b = new StringBuilder();
    for (String log : LOGS) {
      Path p = Path.of("src/test/resources").resolve(log);
      b.append(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
    }
    return b.toString();
  }

  /** Asks about every {@code stride}-th line only, as the reader asks about non-NCCL lines only. */
  @ParameterizedTest(name = "every {0}. line")
  @ValueSource(ints = {1, 2, 3, 7, 13})
  void answersAsASearchOfEachLine(int stride) throws IOException {
    String block = text();
    assertThat(block.length()).isGreaterThan(3 * Needles.Finder.WINDOW);
    List<String> needles = StepTimeReader.NEEDLES;
    Needles.Finder finder = new Needles.Finder(block, needles);
    List<Integer> expected = new ArrayList<>();
    List<Integer> actual = new ArrayList<>();
    int start = 0;
    int line = 0;
    while (start < block.length()) {
      int end = block.indexOf('\n', start);
      if (end < 0) {
        end = block.length();
      }
      if (line++ % stride == 0) {
        String l = block.substring(start, end);
        boolean holds = needles.stream().anyMatch(l::contains);
        if (holds) {
          expected.add(line);
        }
        if (finder.any(start, end)) {
          actual.add(line);
        }
      }
      start = end + 1;
    }
    assertThat(expected).isNotEmpty();
    assertThat(actual).isEqualTo(expected);
  }

  /**
   * Which needles, marks included (some found at another needle's or a rare character's
   * occurrences), each line holds: the same bits as a search of each line for each, on the real
   * logs.
   */
  @ParameterizedTest(name = "every {0}. line")
  @ValueSource(ints = {1, 2, 5})
  void tellsWhichAsASearchOfEachLine(int stride) throws IOException {
    assertWhich(text(), stride);
  }

  /**
   * Lines where an anchor occurs several times, or only as part of a needle found at it (a needle
   * without the space at its end), or where a needle found at another's occurrence stands beside it
   * or without it.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "{ {'loss' no, then {'loss': 1.0}",
        "{'loss': 2.1, 'step': 3} {",
        "{'los {'l {'loss'",
        "time (ms | time (ms) |",
        "elapsed time (ms) | forward: 12.1 | backward: 30.2",
        "timer time time (ms) |",
        "  3%|▎ | 30/1000 [00:10<05:00, 3.2it/s] 4%|",
        "50% done | 50%| bar",
        "%%%%|",
        "{{{{",
        "no needle here",
        "Totals: Total",
        "Total",
        "Totally Total steps",
        "Total train_batch_size=64, local batch size 8, iteration 4, loss: 1.2, , skipped=0"
      })
  void tellsWhichWhereAnchorsRepeat(String line) {
    // the line three times among others, the last without a line break after it
    assertWhich("a line\n" + line + "\n" + line + "\nanother {%\n" + line, 1);
  }

  private static final String RANK0_TAIL = "public/steps/hf-seed001-g6e-efa-rank0-tail.log";

  /**
   * Which character or string each needle is searched by in a block that starts with a real
   * DeepSpeed job's lines: a character rare at the block's start where the needle has one.
   */
  @ParameterizedTest(name = "{0} by {1}")
  @CsvSource(
      delimiterString = " by ",
      quoteCharacter = '"',
      value = {
        "\"Total \" by T",
        "train_ by train_",
        "{'loss' by {",
        "%| by %",
        "step by step",
        "time by time",
        "local batch size by z",
        "\", skipped=\" by =",
        "time (ms) | by (",
        "iteration by iteration",
        "loss: by loss:",
        "{ by {"
      })
  void searchesByACharacterRareAtTheBlocksStart(String needle, String anchor) throws IOException {
    String block = read(RANK0_TAIL);
    List<String> needles = new StepTimeReader().lines().searched();
    assertThat(needles).contains(needle);
    assertThat(Needles.Finder.anchor(needle, needles, Needles.Finder.sample(block)))
        .isEqualTo(anchor);
  }

  /**
   * The same bits as a search of each line where the characters rare at the block's start are
   * common after it, around needles and pieces of them.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "Total Totals TTTT Total train_ T",
        "local batch size zzz local batch siz z",
        ", skipped=0 === , skipped , skipped=",
        "(((( time (ms) | time (ms) ( time (ms) |",
        "T z = ( { % | no needle"
      })
  void tellsWhichWhereRareCharactersTurnCommon(String line) throws IOException {
    StringBuilder block = new StringBuilder(read(RANK0_TAIL));
    while (block.length() < 3 * Needles.Finder.WINDOW) {
      block.append(line).append('\n').append("a line without any\n");
    }
    assertWhich(block.toString(), 1);
  }

  private static String read(String log) throws IOException {
    return new String(
        Files.readAllBytes(Path.of("src/test/resources").resolve(log)),
        StandardCharsets.ISO_8859_1);
  }

  private static void assertWhich(String block, int stride) {
    // what diagnose searches: the step-time needles, then their marks
    List<String> needles = new StepTimeReader().lines().searched();
    Needles.Finder finder = new Needles.Finder(block, needles);
    // the same asked with the searches' look-ahead bounded, as BlockParser bounds it at the next
    // NCCL line: here at the end of the line 0 to 3 lines further on
    Needles.Finder bounded = new Needles.Finder(block, needles);
    List<int[]> lines = new ArrayList<>();
    for (int start = 0; start < block.length(); ) {
      int end = block.indexOf('\n', start);
      if (end < 0) {
        end = block.length();
      }
      lines.add(new int[] {start, end});
      start = end + 1;
    }
    List<Long> expected = new ArrayList<>();
    List<Long> actual = new ArrayList<>();
    List<Long> actualBounded = new ArrayList<>();
    for (int line = 0; line < lines.size(); line++) {
      if (line % stride == 0) {
        int start = lines.get(line)[0];
        int end = lines.get(line)[1];
        String l = block.substring(start, end);
        long bits = 0;
        for (int i = 0; i < needles.size(); i++) {
          bits |= l.contains(needles.get(i)) ? 1L << i : 0;
        }
        expected.add(bits);
        actual.add(finder.which(start, end));
        int until = lines.get(Math.min(lines.size() - 1, line + line % 4))[1];
        actualBounded.add(bounded.which(start, end, until));
      }
    }
    assertThat(expected).anyMatch(b -> b != 0);
    assertThat(actual).isEqualTo(expected);
    assertThat(actualBounded).isEqualTo(expected);
  }
}
