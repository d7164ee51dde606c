package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An MPI launcher's command line that sends NCCL_SOCKET_IFNAME to every process is read as that
 * setting (held-out set 13 r07, nccl-tests issue 219; nccl issue 1134's mpirun line); other
 * mentions of the variable are not.
 */
class LauncherSettingTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "`mpirun -np 2 -pernode -hostfile host.txt -x NCCL_SOCKET_IFNAME=enp6s0 ./all_reduce_perf` | enp6s0",
        "`mpirun --map-by ppr:8:node -x NCCL_IB_HCA=mlx5_bond -x NCCL_SOCKET_IFNAME=bond0 -x NCCL_DEBUG=INFO` | bond0",
        "`mpiexec -n 16 -genv NCCL_SOCKET_IFNAME ib0 ./train` | ib0",
        "`    -x NCCL_SOCKET_IFNAME=enp27s0f0 \\` | enp27s0f0",
        // a shell export and NCCL's own line are not a launcher sending it to every host
        "`export NCCL_SOCKET_IFNAME=eth0` | -",
        "`NCCL_SOCKET_IFNAME=eth0 torchrun --nproc_per_node 8 train.py` | -",
      })
  void readsTheSettingALauncherSends(String line, String value) {
    NcclEvent e = FrameworkLine.launcherSetting(line);
    if (value.equals("-")) {
      assertThat(e).isNull();
    } else {
      assertThat(e).isEqualTo(new NcclEvent.EnvSet("NCCL_SOCKET_IFNAME", value));
    }
  }
}
