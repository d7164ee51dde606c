package io.topolens.diagnose.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * socket-interface's launcher case, on real files read as {@code diagnose} reads them: one
 * NCCL_SOCKET_IFNAME an MPI launcher sent to every host of a job on several hosts that then failed
 * at init (held-out set 13 r07, nccl-tests issue 219); the same setting on a run that completed, or
 * on a command line alone, is not judged.
 */
class SocketInterfaceLauncherTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // file | the finding's title, or - for none
        "nccl/heldout/set13/r07-socket-ifname-differs-per-node-internal-error-nccl-tests-219.log"
            + " | One interface name sent to every host: NCCL_SOCKET_IFNAME=enp6s0",
        // 16 ranks on 2 nodes with -x NCCL_SOCKET_IFNAME=enp27s0f0: the run completed
        "public/nccl-tests/036-all-reduce-mpi-16r-2node-dell-xe9680-h100-8x400g-ib-mpi-warnings-interleaved.txt"
            + " | -",
        // an mpirun line with -x NCCL_SOCKET_IFNAME=bond0 and nothing else
        "nccl/heldout/set13/r12-cumem-alltoall-deadlock-16-nodes-2.19-nccl-1134.log | -",
      })
  void oneNameSentToEveryHost(String file, String title) {
    List<Finding> found = new SocketInterface().check(Fixtures.observe(file));
    if (title.equals("-")) {
      assertThat(found).isEmpty();
      return;
    }
    assertThat(found).hasSize(1);
    Finding f = found.get(0);
    assertThat(f.severity()).isEqualTo(Severity.WARN);
    assertThat(f.title()).isEqualTo(title);
    assertThat(f.explanation())
        .contains("on 2 hosts (fengyun416, fengyun)", "init failed (ncclInternalError)");
    assertThat(f.evidence()).extracting(e -> e.line()).containsExactly(1L, 9L);
    assertThat(f.fix()).contains("NCCL_SOCKET_IFNAME=enp6s0,enp4s0");
  }
}
