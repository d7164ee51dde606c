package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.topolens.model.Evidence;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Step times held as columns, their line texts deflated: what is read back is what was put. */
class StepListTest {

  static Stream<Arguments> logs() {
    // steps, then the expected median, the line of its example, and the warm-up steps left out
    return Stream.of(
        // 1 M JSON step lines of times 0.1 .. 0.7 s: ties everywhere; the example is the median
        // position's step of a stable sort by time (a Python sort of the same steps agrees)
        arguments(1_000_000, 0.4, 499_999L, 1),
        arguments(7, 0.45, 3L, 1),
        arguments(2, 0.3, 2L, 1));
  }

  @ParameterizedTest(name = "{0} steps")
  @MethodSource("logs")
  void readsBackEveryStepAndTheMedianLine(int count, double median, long line, int warmup) {
    StepTimeReader reader = new StepTimeReader();
    for (int i = 1; i <= count; i++) {
      reader.line("train.log", i, json(i));
    }
    StepTimes t = reader.finish();

    StepSummary s = t.summary().orElseThrow();
    assertThat(s.median()).isEqualTo(median);
    assertThat(s.count()).isEqualTo(count - warmup);
    assertThat(s.warmupDropped()).isEqualTo(warmup);
    assertThat(s.example()).isEqualTo(new Evidence("train.log", line, json((int) line)));
    // every step's line comes back as it was read, from the deflated blocks
    assertThat(t.steps()).hasSize(count);
    for (int i : new int[] {0, count / 2, count - 1}) {
      assertThat(t.steps().get(i))
          .isEqualTo(
              new StepTime(
                  i + 1,
                  (1 + (i + 1) % 7) / 10.0,
                  Framework.JSON_LINES,
                  Derivation.MEASURED,
                  i == 0,
                  new Evidence("train.log", i + 1, json(i + 1))));
    }
  }

  @org.junit.jupiter.api.Test
  void theStepsCannotBeChanged() {
    StepTimeReader reader = new StepTimeReader();
    reader.line("train.log", 1, json(1));
    List<StepTime> steps = reader.finish().steps();
    assertThat(steps).isInstanceOf(StepList.class);
    assertThatThrownBy(() -> steps.add(steps.get(0)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> steps.remove(0)).isInstanceOf(UnsupportedOperationException.class);
  }

  private static String json(int step) {
    return "{\"step\": " + step + ", \"step_time\": " + (1 + step % 7) / 10.0 + "}";
  }
}
