package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Detail;
import io.topolens.model.NcclWarning.SocketSource;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the reader reads of a line so that the rules judge the reading, not its text:
 * master-port-in-use (whether the bind failure names its errno), socket-interface and nccl-warnings
 * (NCCL's bootstrap trace, Gloo's loopback fallback, horovodrun's interface check), shm-exhausted
 * (a death by SIGBUS) and nccl-error (NCCL's own WARN line). Real lines, their sources in the
 * rules' tests (MasterPortInUseRuleTest, SocketInterfaceRuleTest, ShmExhaustedRuleTest,
 * CudaOutOfMemoryRuleTest).
 */
class RuleReadingsTest {

  static Stream<Arguments> lines() {
    return Stream.of(
        Arguments.of(
            "[W socket.cpp:401] [c10d] The server socket has failed to bind to 0.0.0.0:47531"
                + " (errno: 98 - Address already in use).",
            NcclWarning.Kind.PORT_IN_USE,
            new Detail.PortInUse(true),
            false),
        Arguments.of(
            "RuntimeError: The server socket has failed to listen on any local network address."
                + " port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already"
                + " in use",
            NcclWarning.Kind.PORT_IN_USE,
            new Detail.PortInUse(true),
            false),
        Arguments.of(
            "[E socket.cpp:462] [c10d] The server socket has failed to listen on any local network"
                + " address.",
            NcclWarning.Kind.PORT_IN_USE,
            new Detail.PortInUse(false),
            false),
        Arguments.of(
            "n122-246-085:12246:12397 [0] NCCL INFO bootstrap.cc:270 -> 2",
            NcclWarning.Kind.SOCKET,
            new Detail.SocketReport(SocketSource.BOOTSTRAP_TRACE),
            false),
        Arguments.of(
            "[rank7]:[W806 14:25:27.650991133 ProcessGroupGloo.cpp:524] Warning: Unable to resolve"
                + " hostname to a (local) address. Using the loopback address as fallback. Manually"
                + " set the network interface to bind to with GLOO_SOCKET_IFNAME. (function"
                + " operator())",
            NcclWarning.Kind.SOCKET,
            new Detail.SocketReport(SocketSource.GLOO_LOOPBACK),
            false),
        Arguments.of(
            "Exception: Unable to find a set of common task-to-task communication interfaces: [(0,"
                + " {'lo': [('127.0.0.1', 12345)], 'eno1': [('10.0.0.1', 12345)]}), (1, {'lo':"
                + " [('127.0.0.1', 12346)], 'ib0': [('10.1.0.2', 12346)]})]",
            NcclWarning.Kind.SOCKET,
            new Detail.SocketReport(SocketSource.HOROVOD_NO_COMMON_INTERFACE),
            false),
        Arguments.of(
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -7) local_rank: 0"
                + " (pid: 1173017) of binary: /home/ma-user/anaconda3/envs/PyTorch-1.11.0/bin/python3",
            NcclWarning.Kind.SHM,
            new Detail.BusError(),
            false),
        Arguments.of(
            "  exitcode  : -7 (pid: 467398)", NcclWarning.Kind.SHM, new Detail.BusError(), false),
        Arguments.of(
            "  traceback : Signal 7 (SIGBUS) received by PID 467398",
            NcclWarning.Kind.SHM,
            new Detail.BusError(),
            false),
        Arguments.of(
            "ubuntu:9621:9691 [6] misc/shmutils.cc:71 NCCL WARN Error: failed to extend"
                + " /dev/shm/nccl-fjwOOB to 5967876 bytes",
            NcclWarning.Kind.SHM,
            null,
            true));
  }

  @ParameterizedTest
  @MethodSource("lines")
  void readsWhatTheRulesJudge(String line, NcclWarning.Kind kind, Detail detail, boolean ncclWarn) {
    Job job = FrameworkLinesTest.readText(line + "\n");
    assertThat(job.warnings()).hasSize(1);
    NcclWarning w = job.warnings().get(0);
    assertThat(w.kind()).isEqualTo(kind);
    assertThat(w.detail()).isEqualTo(detail);
    assertThat(w.ncclWarn()).isEqualTo(ncclWarn);
  }
}
