package io.topolens.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.bench.ProbeLaunch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A variant's probe launch line read from its logs: a damaged one (the probe's own lines, cut as in
 * ProbeLaunchReaderTest) is said, not dropped, and the next log's whole line is read.
 */
class VariantAnalysisTest {
  @TempDir Path work;

  private static final String WHOLE =
      "[rank0]: # topolens-probe launch: kernel 7.77 us/op, nccl 16.56 us/op, layer 653.00 us/op;"
          + " median of 1 ranks, each the median of 5 rounds of 200 ops";

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "# topolens-probe launch: kernel 7.77 us/op, nccl 16.56 us/op, layer 653.00 us/op; median"
            + " of 1 ra",
        "# topolens-probe launch: kernel 7.77 us/op, layer 653.00 us/op; median of 1 ranks, each"
            + " the median of 5 rounds of 200 ops",
      })
  void aDamagedLaunchLineIsSaid(String damaged) throws Exception {
    Path a = Files.writeString(work.resolve("rank0.log"), "starting\n" + damaged + "\n");
    Path b = Files.writeString(work.resolve("rank1.log"), WHOLE + "\n");
    List<String> problems = new ArrayList<>();
    ProbeLaunch l = VariantAnalysis.launch(List.of(a, b), problems::add);
    assertThat(l.layerUs()).isEqualTo(653.0);
    assertThat(l.evidence().file()).isEqualTo(b.toString());
    assertThat(problems)
        .containsExactly(
            a
                + ":2: the probe's launch line is cut short or lacks an op (kernel, nccl, layer): "
                + damaged
                + " (no launch time read from it)");
  }

  @ParameterizedTest
  @CsvSource({"1", "2"})
  void wholeLinesAreNoProblem(int logs) throws Exception {
    List<Path> paths = new ArrayList<>();
    for (int i = 0; i < logs; i++) {
      paths.add(Files.writeString(work.resolve("rank" + i + ".log"), WHOLE + "\n"));
    }
    List<String> problems = new ArrayList<>();
    assertThat(VariantAnalysis.launch(paths, problems::add).kernelUs()).isEqualTo(7.77);
    assertThat(problems).isEmpty();
  }
}
