package io.topolens.diagnose.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * results-corrupted on real nccl-tests output read as {@code diagnose} reads it (sources:
 * public/nccl-tests/README.md): a run whose check found wrong values, and runs that found none.
 */
class ResultsCorruptedTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // file | severity, or - for no finding | the evidence's line numbers | words it says
        // nccl-tests issue 37: Out of bounds values : 2 FAILED; the old error column (1e+00) is
        // no count; no NCCL line and no topology: the path is not known
        "public/nccl-tests/030-all-gather-2020-old-algbw-no-hash-out-of-bounds-failed.txt | ERROR | 6"
            + " | Nothing given says which path the run took",
        // healthy runs: 0 OK, counts of 0, N/A in place
        "public/nccl-tests/036-all-reduce-mpi-16r-2node-dell-xe9680-h100-8x400g-ib-mpi-warnings-interleaved.txt"
            + " | - | - | -",
        "public/nccl-tests/014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt | - | - | -",
      })
  void namesCorruptedResults(String file, String severity, String lines, String says) {
    List<Finding> found = new ResultsCorrupted().check(Fixtures.observe(file));
    if (severity.equals("-")) {
      assertThat(found).isEmpty();
      return;
    }
    assertThat(found).hasSize(1);
    Finding f = found.get(0);
    assertThat(f.severity()).isEqualTo(Severity.valueOf(severity));
    assertThat(f.title())
        .isEqualTo("all_gather_perf received wrong values: data corrupted between GPUs");
    assertThat(f.explanation()).contains(says).contains("IOMMU").contains("PCI ACS");
    assertThat(f.fix()).contains("lspci -vvv | grep ACSCtl").contains("NCCL_P2P_DISABLE=1");
    assertThat(f.evidence().stream().map(Evidence::line).toList())
        .containsExactlyElementsOf(Arrays.stream(lines.split(" ")).map(Long::valueOf).toList());
  }
}
