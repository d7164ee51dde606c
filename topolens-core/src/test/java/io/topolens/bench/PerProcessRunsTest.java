package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the reader takes from nccl-tests output that several processes printed on their own (a build
 * without MPI under mpirun) and from one job's: each header and each summary after a summary is a
 * run, with the GPUs of its process ({@code nThread} x {@code nGpus}). Sources:
 * public/nccl-tests-mpi/README.md, nccl/heldout/set17/README.md.
 */
class PerProcessRunsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // file | each run's start line | its Avg bus bandwidth (- none) | its GPUs per process |
        // devices
        "public/nccl-tests-mpi/027-two-hosts-then-one-host-summaries.txt | 2 5 8"
            + " | 3.94145 3.94156 3.95192 | 0 0 0 | 0 0 0",
        "nccl/heldout/set17/n13-nccl-tests-stale-non-mpi-build-per-host-nccl-tests-27.log | 2 5"
            + " | 3.94145 3.94156 | 0 0 | 0 0",
        "public/nccl-tests-mpi/213-two-headers-mpirun-two-hosts-h800.txt | 3 6 | - - | 8 8 | 0 4",
        "public/nccl-tests-mpi/252-mpi-build-hostfile-8r-two-hosts.txt | 2 | - | 1 | 7",
      })
  void readsEachProcessRun(String file, String starts, String busbw, String gpus, String devices)
      throws Exception {
    List<BenchRun> runs = new NcclTestsReader().read(Fixtures.path(file), file).runs();
    assertThat(runs.stream().map(r -> r.start().line()).toList())
        .containsExactlyElementsOf(longs(starts));
    assertThat(
            runs.stream().map(r -> r.avgBusBw() == null ? "-" : r.avgBusBw().toString()).toList())
        .containsExactlyElementsOf(Arrays.asList(busbw.split(" ")));
    assertThat(runs.stream().map(r -> (long) r.gpusPerProcess()).toList())
        .containsExactlyElementsOf(longs(gpus));
    assertThat(runs.stream().map(r -> (long) r.devices().size()).toList())
        .containsExactlyElementsOf(longs(devices));
  }

  private static List<Long> longs(String s) {
    return Arrays.stream(s.split(" ")).map(Long::valueOf).toList();
  }
}
