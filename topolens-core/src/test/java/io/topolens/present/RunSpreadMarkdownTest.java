package io.topolens.present;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Section 9's one-step SHM miss (the first 2 x H100 machine, SHM/NVLink 1.60) set against the same
 * job run 5 times on each of two 2 x H200 machines: the runs' own ratios say whether one run's draw
 * reaches it, and the sections show each machine's spread.
 */
class RunSpreadMarkdownTest {
  private static final String DEEP = "examples/perf/h200x2-heldout-deep-runs.yaml";
  private static String md;

  @BeforeAll
  static void run() throws Exception {
    md =
        Validated.run(
                List.of(),
                List.of("bench/results/h100x2-heldout-deep/results.json"),
                List.of("examples/perf/h100x2-heldout-deep-runs.yaml"),
                List.of(
                    "bench/results/h200x2-deep-shm-repeat",
                    "bench/results/h200x2-deep-shm-repeat-2"),
                List.of(DEEP, DEEP))
            .md();
  }

  @ParameterizedTest(name = "section {0}: {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        // section (after the one experiment, 6), folder, the SHM ratio row of its 5 runs
        "7; bench/results/h200x2-deep-shm-repeat; | 1x2-NCCL_P2P_DISABLE=1 / 1x2 | 5 | 1.12 | 0.90-1.40 |",
        "8; bench/results/h200x2-deep-shm-repeat-2; | 1x2-NCCL_P2P_DISABLE=1 / 1x2 | 5 | 1.36 | 1.02-1.51 |",
      })
  void eachFolderIsASectionWithItsRunsRatios(int section, String dir, String row) {
    int from = md.indexOf("## " + section + ". Run-to-run spread: `");
    assertThat(from).isPositive();
    String part = md.substring(from, md.indexOf("\n## ", from + 1));
    assertThat(part.lines().findFirst().orElseThrow())
        .endsWith(dir + "` (5 runs of one job on one machine)");
    assertThat(part).contains(row);
    assertThat(md).contains("| run-to-run spread (section " + section + "): step times");
  }

  @ParameterizedTest(name = "section {0} against section 9''s 1.60")
  @CsvSource(
      delimiter = ';',
      value = {
        // 0.20761 / 0.12954 = 1.603 against each machine's highest ratio, 1.400 and 1.506
        "7; from 0.90 to 1.40 (this run 1.60): this run's ratio lies above every one of them (+14.5%",
        "8; from 1.02 to 1.51 (this run 1.60): this run's ratio lies above every one of them (+6.4%",
      })
  void theMissIsSetAgainstEachMachinesRuns(int section, String says) {
    int from = md.indexOf("- 1x2-NCCL_P2P_DISABLE=1 with one step: ");
    assertThat(from).isPositive();
    String bullet = md.substring(from, md.indexOf('\n', from));
    assertThat(bullet).contains("Section " + section + " (`").contains(says);
  }
}
