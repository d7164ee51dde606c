package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.NcclWarning;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * MPI's transports read with which one failed, so that mpi-transport-error judges the reading, not
 * the line's text: Open MPI's btl tcp here, UCX in {@link FrameworkLine}.
 */
class PlatformLineTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // btl_tcp_endpoint.c's format (MpiTransportErrorRuleTest)
        "[node1][[41234,1],0][btl_tcp_endpoint.c:626:mca_btl_tcp_endpoint_recv_connect_ack]"
            + " received unexpected process identifier [[41234,1],3] | true",
        "[node2][[5321,1],1][btl_tcp_endpoint.c:803:mca_btl_tcp_endpoint_complete_connect]"
            + " connect() to 172.17.0.1 failed: Connection refused (111) | true",
      })
  void btlTcpLinesAreReadAsSuch(String line, boolean btlTcp) {
    NcclEvent.Warning w = (NcclEvent.Warning) PlatformLine.parse(line);
    assertThat(w.kind()).isEqualTo(NcclWarning.Kind.MPI_TRANSPORT);
    assertThat(w.detail()).isEqualTo(new NcclWarning.Detail.MpiTransport(btlTcp));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // nccl-tests issue 327's UCX line (MpiTransportErrorRuleTest)
        "ib_device.c:1380 UCX  ERROR   ibv_create_ah(dlid=49152 sl=0 port=1) for RC DEVX QP connect"
            + " on mlx5_15 failed: No such device",
      })
  void ucxLinesAreNot(String line) {
    assertThat(FrameworkLine.mpiTransportFailed(line)).isTrue();
    assertThat(PlatformLine.parse(line)).isNull();
  }

  /**
   * hydra's {@code EXIT CODE} is the wait status of a process that did not exit (MPICH's
   * pmiserv_cb.c prints it only where !WIFEXITED, as pmip_cb.c's waitpid gave it): the signal in
   * its low seven bits, 0x80 for a core dump; a status of an exit (256: exit(1)) or a stop (0x7f
   * low bits) names no signal. Its KILLED BY SIGNAL and (signal N) name the signal itself.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "=   EXIT CODE: 9 | 9",
        "=   EXIT CODE: 139 | 11",
        "=   EXIT CODE: 134 | 6",
        "=   EXIT CODE: 135 | 7",
        "=   EXIT CODE: 256 | -1",
        "=   EXIT CODE: 2943 | -1",
        "=   EXIT CODE: 0 | -1",
        "=   KILLED BY SIGNAL: 9 (Killed) | 9",
        "=   RANK 0 PID 9 RUNNING AT bfc9e9b610a2 | -1",
        "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11) | 11",
      })
  void hydraSaysTheSignalInItsWaitStatus(String line, int signal) {
    assertThat(PlatformLine.signal(line)).isEqualTo(signal);
  }
}
