package io.topolens.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.experiment.Experiment;
import io.topolens.nccl.InputProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExperimentTest {
  static final Path DIR = Path.of("src/test/resources/experiment-h200");

  @Test
  void readsEveryVariantOfResultsJson() throws Exception {
    Experiment e = Experiment.read(DIR);
    assertThat(e.name()).isEqualTo("h200-transports");
    assertThat(e.variants())
        .extracting(Experiment.Variant::name)
        .containsExactly("p2p", "shm", "sockets", "efa", "ib <script>alert(1)</script>");
    Experiment.Variant p2p = e.variants().get(0);
    assertThat(p2p.busbw()).containsEntry("all_reduce", 362.84);
    assertThat(p2p.stepSeconds().median()).isEqualTo(0.098);
    assertThat(e.variants().get(3).stepSeconds()).isNull();
  }

  @ParameterizedTest
  @CsvSource(
      nullValues = "-",
      value = {
        "0, -",
        "1, p2p-unavailable",
        "2, same-host-over-network",
        "3, -",
        "4, net-plugin-fallback"
      })
  void mainFindingIsTheFirstOfTheMostSevere(int variant, String id) throws Exception {
    Experiment.FindingRef f = Experiment.read(DIR).variants().get(variant).mainFinding();
    assertThat(f == null ? null : f.id()).isEqualTo(id);
  }

  @Test
  void variantChartDrawsOnlyVariantsThatRan() throws Exception {
    VariantChart c = VariantChart.of(Experiment.read(DIR));
    assertThat(c.rows()).extracting(VariantChart.Row::width).filteredOn(w -> w != null).hasSize(3);
    assertThat(c.rows().get(2).note()).isEqualTo("NET/Socket/0; error same-host-over-network");
    assertThat(c.rows().get(3).note()).isEqualTo("skipped, no step time");
    assertThat(c.collectives()).containsExactly("all_gather", "all_reduce");
    // bars take the colour of the slowest path the variant used, as on the transport map
    assertThat(c.rows())
        .extracting(VariantChart.Row::path)
        .containsExactly(
            PathClass.P2P, PathClass.SHM, PathClass.NET_TCP, PathClass.OTHER, PathClass.OTHER);
    assertThat(c.paths()).containsExactly(PathClass.P2P, PathClass.SHM, PathClass.NET_TCP);
  }

  @Test
  void theSummaryCountsEveryVariantsFindings() throws Exception {
    Summary s = Summary.of(java.util.List.of(), null, java.util.List.of(), 0, Experiment.read(DIR));
    assertThat(s.count(io.topolens.diagnose.Severity.ERROR)).isEqualTo(2);
    assertThat(s.count(io.topolens.diagnose.Severity.WARN)).isEqualTo(2);
    assertThat(s.count(io.topolens.diagnose.Severity.INFO)).isZero();
    assertThat(s.rows())
        .containsExactly(
            new Summary.Row(
                "experiment",
                "h200-transports: 5 variants, 3 ran; their 4 finding(s) are counted above"));
  }

  @Test
  void aFolderWithoutResultsIsNoExperiment(@TempDir Path dir) {
    assertThat(Experiment.isExperiment(dir)).isFalse();
    assertThat(Experiment.isExperiment(DIR)).isTrue();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"variants\": []}|no variants in it",
        "{\"variants\": [{\"name\": \"a\", \"stepSeconds\": 3}]}|not an experiment's results",
        "not json|not an experiment's results"
      })
  void aBrokenResultsFileIsNamed(String json, String problem, @TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("results.json"), json);
    assertThatThrownBy(() -> Experiment.read(dir))
        .isInstanceOf(InputProblem.class)
        .hasMessageStartingWith(dir.resolve("results.json") + ": ")
        .hasMessageContaining(problem);
  }
}
