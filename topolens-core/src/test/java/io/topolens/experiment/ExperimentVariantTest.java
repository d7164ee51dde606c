package io.topolens.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExperimentVariantTest {

  /** Findings as id:severity; the main one is the first of the most severe warn or error. */
  @ParameterizedTest
  @CsvSource(
      nullValues = "-",
      delimiter = ';',
      value = {
        "env-override:info env-override:info; -",
        "env-override:info p2p-unavailable:warn; p2p-unavailable",
        "p2p-unavailable:warn same-host-over-network:error nvlink-unused:error;"
            + " same-host-over-network",
        "-; -"
      })
  void mainFindingIsTheFirstOfTheMostSevereProblem(String findings, String main) {
    List<Experiment.FindingRef> refs =
        findings == null
            ? List.of()
            : Arrays.stream(findings.split(" "))
                .map(f -> f.split(":"))
                .map(f -> new Experiment.FindingRef(f[0], f[1]))
                .toList();
    Experiment.Variant v =
        new Experiment.Variant(
            "1x1",
            "ok",
            "1x1",
            1,
            "variants/1x1",
            null,
            null,
            null,
            refs,
            1,
            null,
            null,
            null,
            1,
            null,
            1.0,
            null,
            null,
            null,
            null,
            null,
            null);
    Experiment.FindingRef f = v.mainFinding();
    assertThat(f == null ? null : f.id()).isEqualTo(main);
  }
}
