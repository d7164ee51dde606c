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
 * nccl-tests-not-mpi on real nccl-tests output read as {@code diagnose} reads it (sources:
 * public/nccl-tests-mpi/README.md, the held-out READMEs): several runs of one test after one mpirun
 * of several processes, none showing a job that joined.
 */
class NcclTestsNotMpiTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // file | severity, or - for no finding | the evidence's line numbers
        // two headers of nGpus 8, ranks 0..3 on hw14 only, after mpirun -np 2 -H of two hosts
        "public/nccl-tests-mpi/213-two-headers-mpirun-two-hosts-h800.txt | WARN | 1 3 6",
        // two summaries after the two-host mpirun; the one-host mpirun after them is a run of its
        // own
        "public/nccl-tests-mpi/027-two-hosts-then-one-host-summaries.txt | WARN | 1 2 3 5 6",
        "nccl/heldout/set17/n13-nccl-tests-stale-non-mpi-build-per-host-nccl-tests-27.log | WARN"
            + " | 1 2 3 5 6",
        // a build with MPI: one header, ranks 0..6 over two hosts
        "public/nccl-tests-mpi/252-mpi-build-hostfile-8r-two-hosts.txt | - | -",
        // one header, then a failure: one run
        "public/nccl-tests-mpi/092-one-header-then-failure-np2.txt | - | -",
        // srun, no mpirun; one header listing 12 ranks of two hosts
        "public/nccl-tests-mpi/428-srun-mpi-build-16r-two-hosts.txt | - | -",
        // one job of 16 ranks over two hosts after mpirun --np 16 -H a:8,b:8
        "public/nccl-tests/036-all-reduce-mpi-16r-2node-dell-xe9680-h100-8x400g-ib-mpi-warnings-interleaved.txt"
            + " | - | -",
        // five collectives of 80 ranks in one file, no launch command in it
        "public/nccl-tests/014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt | - | -",
      })
  void namesNcclTestsThatDidNotJoin(String file, String severity, String lines) {
    List<Finding> found = new NcclTestsNotMpi().check(Fixtures.observe(file));
    if (severity.equals("-")) {
      assertThat(found).isEmpty();
      return;
    }
    assertThat(found).hasSize(1);
    Finding f = found.get(0);
    assertThat(f.severity()).isEqualTo(Severity.valueOf(severity));
    assertThat(f.title()).contains("separate tests under one mpirun");
    assertThat(f.explanation()).contains("make clean").contains("MPI=1");
    assertThat(f.evidence().stream().map(Evidence::line).toList())
        .containsExactlyElementsOf(Arrays.stream(lines.split(" ")).map(Long::valueOf).toList());
  }
}
