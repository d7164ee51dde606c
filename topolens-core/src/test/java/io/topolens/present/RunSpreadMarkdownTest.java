package io.topolens.present;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.experiment.Experiment;
import io.topolens.perf.RunSpread;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The first 2 x H100 machine's one-step SHM miss set against the same job run 5 times on each of
 * two 2 x H200 machines: each folder's section shows the SHM / NVLink ratio of its runs as their
 * results.json files hold them, and the miss says where its own ratio lies against them.
 */
class RunSpreadMarkdownTest {
  private static final String DEEP = "examples/perf/h200x2-heldout-deep-runs.yaml";
  private static final String MISS = "bench/results/h100x2-heldout-deep/results.json";
  private static final String SHM = "1x2-NCCL_P2P_DISABLE=1";
  private static final String NVLINK = "1x2";
  private static String md;

  @BeforeAll
  static void run() throws Exception {
    md =
        Validated.run(
                List.of(),
                List.of(MISS),
                List.of("examples/perf/h100x2-heldout-deep-runs.yaml"),
                List.of(
                    "bench/results/h200x2-deep-shm-repeat",
                    "bench/results/h200x2-deep-shm-repeat-2"),
                List.of(DEEP, DEEP))
            .md();
  }

  @ParameterizedTest(name = "section {0}: {1}")
  @CsvSource({
    // section: after the one experiment (6)
    "7, bench/results/h200x2-deep-shm-repeat",
    "8, bench/results/h200x2-deep-shm-repeat-2",
  })
  void eachFolderIsASectionWithItsRunsRatios(int section, String dir) throws Exception {
    List<Double> ratios = ratios(dir);
    int from = md.indexOf("## " + section + ". Run-to-run spread: `");
    assertThat(from).isPositive();
    String part = md.substring(from, md.indexOf("\n## ", from + 1));
    assertThat(part.lines().findFirst().orElseThrow())
        .endsWith(dir + "` (" + ratios.size() + " runs of one job on one machine)");
    assertThat(part)
        .contains(
            String.format(
                Locale.ROOT,
                "| %s / %s | %d | %.2f | %.2f-%.2f |",
                SHM,
                NVLINK,
                ratios.size(),
                RunSpread.median(ratios),
                RunSpread.min(ratios),
                RunSpread.max(ratios)));
    assertThat(md).contains("| run-to-run spread (section " + section + "): step times");
  }

  @ParameterizedTest(name = "section {0}")
  @CsvSource({
    "7, bench/results/h200x2-deep-shm-repeat",
    "8, bench/results/h200x2-deep-shm-repeat-2",
  })
  void theMissIsSetAgainstEachMachinesRuns(int section, String dir) throws Exception {
    List<Double> ratios = ratios(dir);
    double miss = ratio(Path.of("..", MISS));
    double high = RunSpread.max(ratios);
    double low = RunSpread.min(ratios);
    String where =
        miss > high
            ? String.format(
                Locale.ROOT,
                "this run's ratio lies above every one of them (%s over the highest)",
                ValidationMarkdown.pct(miss / high - 1))
            : miss < low
                ? String.format(
                    Locale.ROOT,
                    "this run's ratio lies below every one of them (%s under the lowest)",
                    ValidationMarkdown.pct(miss / low - 1))
                : "";
    int from = md.indexOf("- " + SHM + " with one step: ");
    assertThat(from).isPositive();
    String bullet = md.substring(from, md.indexOf('\n', from));
    assertThat(bullet)
        .contains("Section " + section + " (`")
        .contains(
            String.format(
                Locale.ROOT, "from %.2f to %.2f (this run %.2f): %s", low, high, miss, where));
  }

  /** SHM over NVLink in every run under {@code dir} that measured both. */
  private static List<Double> ratios(String dir) throws Exception {
    List<Double> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(Path.of("..", dir))) {
      for (Path f : s.filter(p -> p.getFileName().toString().equals("results.json")).toList()) {
        Double r = ratio(f);
        if (r != null) {
          out.add(r);
        }
      }
    }
    return out;
  }

  private static Double ratio(Path results) throws Exception {
    Experiment e = Experiment.read(results.getParent());
    Double shm = step(e, SHM);
    Double nvlink = step(e, NVLINK);
    return shm == null || nvlink == null ? null : shm / nvlink;
  }

  private static Double step(Experiment e, String name) {
    return e.variants().stream()
        .filter(v -> v.name().equals(name) && v.ok() && v.stepSeconds() != null)
        .map(v -> v.stepSeconds().median())
        .findFirst()
        .orElse(null);
  }
}
