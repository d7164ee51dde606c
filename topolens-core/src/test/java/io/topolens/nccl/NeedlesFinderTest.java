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
}
