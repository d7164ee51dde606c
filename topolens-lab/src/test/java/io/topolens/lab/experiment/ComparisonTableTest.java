package io.topolens.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.experiment.Experiment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The table at the end of an experiment, on the report's example results (4 x H200 transports). */
class ComparisonTableTest {

  static String table(Experiment e) {
    StringWriter w = new StringWriter();
    ComparisonTable.print(e, new PrintWriter(w));
    return w.toString();
  }

  @Test
  void stepsDecideTheRatioWhenAnyVariantTrained() throws Exception {
    Experiment e =
        Experiment.read(Path.of("../topolens-report/src/test/resources/experiment-h200"));
    assertThat(table(e))
        .isEqualTo(
            """
            Experiment h200-transports
            variant                       status   transport          all_reduce GB/s  all_gather GB/s  step s  vs best  main finding                  predicted s  with one step s
            p2p                           ok       P2P/CUMEM                    362.8            340.1  0.0980    1.00x  -                             -            -
            shm                           ok       SHM/direct/direct             30.8                -   0.410    4.18x  warn p2p-unavailable          -            -
            sockets                       ok       NET/Socket/0                  3.85                -    2.91   29.69x  error same-host-over-network  -            -
            efa                           skipped  -                                -                -       -        -  -                             -            -
            ib <script>alert(1)</script>  failed   -                                -                -       -        -  error net-plugin-fallback     -            -
            """);
  }

  @Test
  void withoutStepsBusbwDecidesAndPredictionsShowTheirError() {
    Experiment e =
        new Experiment(
            "probe",
            java.util.List.of(
                variant("1x2", 20.0, new Experiment.Steps(0.5, 0.4, 0.6, 3), 0.55),
                variant("2x1", 5.0, null, 1.2)));
    assertThat(table(e))
        .contains(
            "1x2      ok      -                     20.0   0.500    1.00x  -             0.550 (+10%)")
        .contains(
            "2x1      ok      -                     5.00       -        -  -             1.20");
    Experiment probeOnly =
        new Experiment(
            "probe",
            java.util.List.of(variant("1x2", 20.0, null, null), variant("2x1", 5.0, null, null)));
    assertThat(table(probeOnly))
        .contains("1x2      ok      -                     20.0       -    1.00x")
        .contains("2x1      ok      -                     5.00       -    4.00x");
  }

  /**
   * The prediction with one measured step beside the probe's, each with its error against the
   * measured median; the line under the table says whose step it was.
   */
  @Test
  void thePredictionWithOneStepHasItsOwnColumnAndSaysWhoseStep() {
    String from = "1x2's measured step (0.500 s, 0.400 s predicted) fixes the job's MFU at 0.100";
    Experiment e =
        new Experiment(
            "layouts",
            java.util.List.of(
                variant("1x2", 20.0, new Experiment.Steps(0.5, 0.4, 0.6, 3), 0.4)
                    .withPrediction(0.4, "its own probe", 0.5, from, "1x2"),
                variant("2x1", 5.0, new Experiment.Steps(2.0, 1.9, 2.1, 3), 1.5)
                    .withPrediction(1.5, "its own probe", 1.8, from, "1x2")));
    assertThat(table(e))
        // (0.4 - 0.5) / 0.5, (0.5 - 0.5) / 0.5; (1.5 - 2) / 2, (1.8 - 2) / 2
        .contains("0.400 (-20%)  0.500 (0%)")
        .contains("1.50 (-25%)   1.80 (-10%)")
        .endsWith("with one step: " + from + "; the other variants held out\n");
  }

  static Experiment.Variant variant(
      String name, double busbw, Experiment.Steps steps, Double predicted) {
    return new Experiment.Variant(
        name,
        "ok",
        name,
        2,
        "variants/" + name,
        java.util.Map.of("all_reduce", busbw),
        steps,
        java.util.List.of(),
        java.util.List.of(),
        1,
        null,
        null,
        java.util.Map.of(),
        1,
        null,
        1.0,
        predicted,
        predicted == null ? null : "catalog",
        null,
        null,
        null,
        null);
  }
}
