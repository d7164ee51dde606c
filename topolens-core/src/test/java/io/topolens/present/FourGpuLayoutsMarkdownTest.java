package io.topolens.present;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The 4-GPU layout experiments on 4 x H200 (issue 15), each layout calibrated by its own probe:
 * their ratios between layouts, and what they say of section 4's 4 pods of 1 against 2 pods of 2.
 */
class FourGpuLayoutsMarkdownTest {
  private static String md;

  @BeforeAll
  static void run() throws Exception {
    md =
        Validated.run(
                List.of(),
                List.of(
                    "bench/results/h200x4-experiment/results.json",
                    "bench/results/h200x4-experiment-repeat/results.json",
                    "bench/results/h200x4-experiment-3/results.json",
                    "bench/results/h200x4-experiment-4/results.json"),
                List.of(
                    "examples/perf/h200x4-experiment-runs.yaml",
                    "examples/perf/h200x4-experiment-repeat-runs.yaml",
                    "examples/perf/h200x4-experiment-runs.yaml",
                    "examples/perf/h200x4-experiment-repeat-runs.yaml"))
            .md();
  }

  @ParameterizedTest(name = "section {0}: {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        // section, ratio row as measured (steps in results.json: 1.019 / 0.127, 1.666 / 0.127, ...)
        "6; | 2x2-offload-none / 1x4-offload-none | 8.05 |",
        "6; | 4x1-offload-none / 1x4-offload-none | 13.17 |",
        "6; | 1x4-NCCL_P2P_DISABLE=1-offload-none / 1x4-offload-none | 1.87 |",
        "7; | 2x2 / 1x4 | 8.10 |",
        "7; | 4x1 / 1x4 | 11.72 |",
        // a third machine (h200x4-experiment-3): 1.282 / 0.156, 2.157 / 0.156
        "8; | 2x2-offload-none / 1x4-offload-none | 8.23 |",
        "8; | 4x1-offload-none / 1x4-offload-none | 13.85 |",
        // a fourth machine, no offload (h200x4-experiment-4): 0.863 / 0.123, 1.369 / 0.123
        "9; | 2x2 / 1x4 | 6.99 |",
        "9; | 4x1 / 1x4 | 11.09 |",
      })
  void eachExperimentIsASectionWithItsLayoutRatios(int section, String row) {
    int from = md.indexOf("## " + section + ". Experiment `");
    assertThat(from).isPositive();
    String part = md.substring(from, md.indexOf("\n## ", from + 1));
    assertThat(part.lines().findFirst().orElseThrow()).contains("bench/results/h200x4-experiment");
    assertThat(part).contains(row);
  }

  @ParameterizedTest(name = "section {0}")
  @CsvSource(
      delimiter = ';',
      value = {
        // 1.666 / 1.019 and 1.634 / 1.129 measured; section 4's 9.20 / 5.70
        "6; 4 pods of 1 took 1.63x the step of 2 pods of 2 (1.666 s against 1.019 s)",
        "7; 4 pods of 1 took 1.45x the step of 2 pods of 2 (1.634 s against 1.129 s)",
        "8; 4 pods of 1 took 1.68x the step of 2 pods of 2 (2.157 s against 1.282 s)",
        "9; 4 pods of 1 took 1.59x the step of 2 pods of 2 (1.369 s against 0.863 s)",
      })
  void sectionFourSaysWhatEachExperimentMeasuredOfFourPodsOfOne(int section, String says) {
    String four = md.substring(md.indexOf("## 4. Pods sharing a host"), md.indexOf("\n## 5."));
    assertThat(four)
        .contains("- Section " + section + " (`")
        .contains(says)
        // path.tcp.flowExponent is fitted to section 4's ratio: in-sample there
        .contains("here 1.61x measured (9.20 / 5.70), 1.61x predicted");
  }
}
