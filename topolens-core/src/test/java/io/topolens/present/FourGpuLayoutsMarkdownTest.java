package io.topolens.present;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.topolens.experiment.Experiment;
import io.topolens.perf.ExperimentValidation;
import io.topolens.perf.ValidationReport.RatioCheck;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The 4-GPU layout experiments on 4 x H200 (issue 15), each layout calibrated by its own probe:
 * their ratios between layouts, measured as the results.json files hold them and predicted within
 * issue 12's target with one measured step, and what they say of section 4's 4 pods of 1 against 2
 * pods of 2.
 */
class FourGpuLayoutsMarkdownTest {
  /** Issue 12: ratios between layouts and transports of one host, a probe of each, one step. */
  static final double TARGET = ValidationMarkdown.RATIO_TARGET;

  static final List<String> RESULTS =
      List.of(
          "bench/results/h200x4-experiment/results.json",
          "bench/results/h200x4-experiment-repeat/results.json",
          "bench/results/h200x4-experiment-3/results.json",
          "bench/results/h200x4-experiment-4/results.json");

  private static Validated validated;

  @BeforeAll
  static void run() throws Exception {
    validated =
        Validated.run(
            List.of(),
            RESULTS,
            List.of(
                "examples/perf/h200x4-experiment-runs.yaml",
                "examples/perf/h200x4-experiment-repeat-runs.yaml",
                "examples/perf/h200x4-experiment-runs.yaml",
                "examples/perf/h200x4-experiment-repeat-runs.yaml"));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void eachExperimentIsASectionWithItsMeasuredLayoutRatiosPredictedWithinTarget(int i)
      throws Exception {
    Experiment stored = Experiment.read(Path.of("..", RESULTS.get(i)).getParent());
    ExperimentValidation.Report report = validated.report().experiments().get(i);
    String part = section(RESULTS.get(i));
    // every ratio between two variants of one job and one offload, each layout and transport
    // against the fastest: its measured value is the two steps of results.json
    List<RatioCheck> between =
        report.ratios().stream().filter(RatioCheck::betweenTransports).toList();
    assertThat(between).isNotEmpty();
    for (RatioCheck c : between) {
      String[] names = c.name().split(" / ");
      double ratio = median(stored, names[0]) / median(stored, names[1]);
      assertThat(c.measured()).as(c.name()).isCloseTo(ratio, within(1e-12));
      assertThat(part)
          .contains(
              String.format(Locale.ROOT, "| %s | %.2f | %.2f |", c.name(), ratio, c.predicted()));
      assertThat(Math.abs(c.predictedFitted() / ratio - 1)).as(c.name()).isLessThan(TARGET);
    }
  }

  /**
   * Section 4 says what each experiment measured of 4 pods of 1 against 2 pods of 2; the exponent
   * fitted to section 4's own pair reproduces it there (in-sample), and on the experiments it is
   * held out: carried from one layout's probe to the other, within target and nearer than the flows
   * sharing a fixed rate.
   */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void sectionFourSaysWhatEachExperimentMeasuredOfFourPodsOfOne(int i) throws Exception {
    Experiment stored = Experiment.read(Path.of("..", RESULTS.get(i)).getParent());
    String two =
        stored.variants().stream().anyMatch(v -> v.name().equals("2x2")) ? "" : "-offload-none";
    double pair = median(stored, "2x2" + two);
    double single = median(stored, "4x1" + two);
    String md = validated.md();
    String four = md.substring(md.indexOf("## 4. Pods sharing a host"), md.indexOf("\n## 5."));
    assertThat(four)
        .contains(RESULTS.get(i) + "`, each layout calibrated by its own probe)")
        .contains(
            String.format(
                Locale.ROOT,
                "4 pods of 1 took %.2fx the step of 2 pods of 2 (%.3f s against %.3f s)",
                single / pair,
                single,
                pair));
    List<RatioCheck> layouts = validated.report().layoutRatios();
    double measuredHere = layouts.get(1).measured() / layouts.get(0).measured();
    double predictedHere = layouts.get(1).predicted() / layouts.get(0).predicted();
    assertThat(predictedHere).isCloseTo(measuredHere, within(0.01 * measuredHere));
    List<RatioCheck> carried = validated.report().experiments().get(i).carried();
    assertThat(carried).isNotEmpty();
    for (RatioCheck c : carried) {
      double withExponent = Math.abs(c.predictedFitted() / c.measured() - 1);
      double fixedRate = Math.abs(c.predicted() / c.measured() - 1);
      assertThat(withExponent).as(c.name()).isLessThan(TARGET).isLessThan(fixedRate);
    }
  }

  private static String section(String results) {
    String md = validated.md();
    // the header names the file as it was given (here under the repository's root, "../")
    int from = md.indexOf(results + "`\n");
    assertThat(from).as(results).isPositive();
    return md.substring(from, md.indexOf("\n## ", from));
  }

  private static double median(Experiment e, String name) {
    return e.variants().stream()
        .filter(v -> v.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError(name + " not in " + e.name()))
        .stepSeconds()
        .median();
  }
}
