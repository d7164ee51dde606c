package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NCCL's lines that say a variable was set: {@code NCCL_X set by environment to Y}, and net_ib.cc's
 * {@code NCCL_IB_HCA set to Y}, read as the setting.
 */
class EnvLineTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // https://github.com/NVIDIA/nccl/issues/1925
        "`nccl-sleep-c7d759db6-2bp29:2620971:2620971 [3] NCCL INFO NCCL_IB_HCA set to mlx5_0`"
            + " | NCCL_IB_HCA | mlx5_0",
        // https://github.com/siderolabs/docs/issues/566
        "`nccl-test:179:179 [0] NCCL INFO NCCL_IB_HCA set to mlx5_0,mlx5_1,mlx5_2,mlx5_3`"
            + " | NCCL_IB_HCA | mlx5_0,mlx5_1,mlx5_2,mlx5_3",
        // https://github.com/NVIDIA/nccl/issues/1925
        "`nccl-sleep-c7d759db6-2bp29:2620971:2620971 [3] NCCL INFO NCCL_IB_DISABLE set by"
            + " environment to 0.` | NCCL_IB_DISABLE | 0",
      })
  void readsTheSetting(String line, String name, String value) {
    LineHeader h = LineHeader.parse(line);
    assertThat(MessageParser.parse(h)).isEqualTo(new NcclEvent.EnvSet(name, value));
  }

  /** Another variable's "set to" line is NCCL's wording of something else, not read as one. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // https://github.com/siderolabs/docs/issues/566
        "`cn76:155:155 [5] NCCL INFO NCCL_SOCKET_IFNAME set to ibs17`",
      })
  void leavesOtherSetToLines(String line) {
    assertThat(MessageParser.parse(LineHeader.parse(line))).isNotInstanceOf(NcclEvent.EnvSet.class);
  }
}
