package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TqdmLines#bar} and {@link TqdmLines#rate} find what the bar's and the rate's regular
 * expressions find: every match with the same place and groups, on every real progress-bar line of
 * the fixtures and on lines that bend each part of the form.
 */
class TqdmLinesTest {

  /** Every line holding {@code %|} of the bundled logs that have progress bars. */
  static Stream<String> realLines() throws IOException {
    List<String> lines = new ArrayList<>();
    for (String f :
        List.of(
            "public/steps/hf-transformers-262-cut-bars.log",
            "public/steps/lightning-4225-epoch-bars.log",
            "public/steps/hf-alignment-handbook-63-loss-dicts.log",
            "public/steps/hf-seed001-g6e-efa-rank0-tail.log",
            "public/steps/deepspeed-accelerate-1589-timers-and-bar.log",
            "seeds/004-eks-g6e-efa-fallback.log",
            "nccl/heldout/h09-watchdog-progress-bar-pytorch-118369.log")) {
      for (String l : Files.readAllLines(Fixtures.path(f), StandardCharsets.UTF_8)) {
        if (l.contains("%|")) {
          lines.add(l);
        }
      }
    }
    assertThat(lines).hasSize(26);
    return lines.stream();
  }

  @ParameterizedTest
  @MethodSource("realLines")
  void findsWhatTheExpressionsFindOnRealLines(String line) {
    assertThat(hand(line)).isEqualTo(expressions(line)).isNotEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "` 10%|█         | 5/50 [01:23<12:34, 16.7s/it]` | 1",
        "`Epoch 0:  22%|██▏       | 4/18 [00:17<01:02,  4.47s/it, loss=10.072, v_num=193315]` | 1",
        "`  1%|█▍   | 2/203 [00:12<16:46,  5.01s/it` | 1",
        "`  2%|██▊  | 4/203 [00:37<30:55,  9.33s/i` | 1",
        "`Training:   0%|          | 0/18 [00:00<?, ?it/s]` | 1",
        "`1234%|x| 5/50 [1.5it/s]` | 1",
        "`%| 5/50 [1s/it] 7%|| 6/50 [2s/it]` | 1",
        "`7%|no closing pipe` | 0",
        "`7%|a|5/50 [x] 8%|b| 6 /50 [y] 9%|c| 7/50 [.5s/it]` | 2",
        "`7%|a| x5/50 [1s/it] 8%|b|\t 6/50[y] 9%|c| 7/50 [3.s/it, 4.s/it ,.25it/s ,]` | 1",
        "`50%|█████     | 5/10 [00:05<00:05, 1.00s/it]50%|█████     | 5/10 [00:06<00:06, 1.2s/it]` | 2",
        "`5%|| 1/2 [ ?s/it ]` | 1",
        "`5%|| 1/2 [a,b, 3s/it x, 4it/s\u2028]` | 1",
        "`5%|| 1/2 [3s/it\u0085 ]` | 1",
        "`5%|| 1/2 [3s/it\u2029]` | 1",
        "`5%|| 1/2 [,3s/it]` | 1",
        "`5%|| 1/2 [[3s/it]` | 1",
        "`5%|| 1/2 [3s/its]` | 1",
        "`5%|| 1/2 [1,2.3.4s/it]` | 1",
        "`5%|| ١/2 [3s/it]` | 0",
        "`no bar here` | 0"
      })
  void findsWhatTheExpressionsFind(String line, int bars) {
    List<String> expected = expressions(line);

    assertThat(hand(line)).isEqualTo(expected).hasSize(bars);
  }

  /** Each bar match and its rate as the expressions find them, one string per match. */
  private static List<String> expressions(String line) {
    List<String> found = new ArrayList<>();
    Matcher m = TqdmLines.BAR.matcher(line);
    while (m.find()) {
      Matcher r = TqdmLines.RATE.matcher(m.group(4));
      String rate = r.find() ? r.group(1) + " " + r.group(2) : "none";
      found.add(
          List.of(
                  m.start(),
                  m.end(),
                  m.group(2),
                  m.group(3),
                  m.group(4),
                  !m.group(5).isEmpty(),
                  rate)
              .toString());
    }
    return found;
  }

  private static List<String> hand(String line) {
    List<String> found = new ArrayList<>();
    for (TqdmLines.Bar b = TqdmLines.bar(line, 0); b != null; b = TqdmLines.bar(line, b.end())) {
      String[] r = TqdmLines.rate(b.bracket());
      String rate = r == null ? "none" : r[0] + " " + r[1];
      found.add(
          List.of(b.start(), b.end(), b.step(), b.total(), b.bracket(), b.closed(), rate)
              .toString());
    }
    return found;
  }
}
