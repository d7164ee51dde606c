package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.diagnose.Diagnoser;
import io.topolens.diagnose.Finding;
import io.topolens.model.Job;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 48 real log excerpts from public issues (NCCL 2.3 to 2.28, many launchers and failures; sources
 * in nccl/public/README.md): every NCCL line is recognised and the transports are exactly those the
 * README lists for each file.
 */
class PublicLogsTest {

  static Stream<Arguments> logs() {
    return Stream.of(
        Arguments.of("001-nccl24-multinode-socket-old-ring-trees.log", List.of("NET/Socket/0")),
        Arguments.of("002-nccl256-mpirun-tag-output-loopback-bootstrap.log", List.of()),
        Arguments.of(
            "003-nccl256-direct-shared-memory-old-trees.log", List.of("direct shared memory")),
        Arguments.of("004-nccl256-ib-roce-mixed-rank-prefix.log", List.of("P2P/IPC")),
        Arguments.of(
            "005-nccl242-mixed-p2p-shm-socket-shm-cuda-failure.log",
            List.of("NET/Socket/0", "P2P/IPC", "direct shared memory")),
        Arguments.of("006-nccl235-interleaved-garbled-ring-lines.log", List.of("P2P/IPC")),
        Arguments.of("007-nccl237-oldest-format-ib-interface-list.log", List.of()),
        Arguments.of(
            "008-nccl2x-ib-gdrdma-p2p-ipc-read-two-nodes.log",
            List.of("NET/IB/0/GDRDMA", "P2P/IPC/read")),
        Arguments.of(
            "009-nccl2x-socket-fallback-no-ib-p2p-ipc-read.log",
            List.of("NET/Socket/3", "P2P/IPC/read")),
        Arguments.of(
            "010-nccl2x-direct-shared-memory-with-nccl-tests-output.log",
            List.of("direct shared memory")),
        Arguments.of(
            "011-nccl2x-p2p-direct-pointer-read-ib-no-gdr.log",
            List.of("NET/IB/3", "P2P/direct pointer/read")),
        Arguments.of("012-nccl2x-init-complete-init-timings-single-process-8gpu.log", List.of()),
        Arguments.of(
            "013-nccl278-ansi-prefix-veth-ipv6-linklocal-socket.log", List.of("NET/Socket/0")),
        Arguments.of("014-nccl256-ipv6-ip6tnl0-veth0-bootstrap.log", List.of()),
        Arguments.of("015-nccl-builtin-timestamps-nvls-cuda-failure.log", List.of()),
        Arguments.of("016-nccl-builtin-timestamps-shm-no-space-left.log", List.of()),
        Arguments.of(
            "017-nccl25-posix-fallocate-no-space-direct-shm.log", List.of("direct shared memory")),
        Arguments.of("018-nccl218-shm-failed-to-extend-dev-shm.log", List.of()),
        Arguments.of(
            "019-efa-cloudwatch-prefix-pxn-libfabric-shared.log",
            List.of(
                "NET/AWS Libfabric/0(0)/GDRDMA/Shared",
                "NET/AWS Libfabric/1(2)/GDRDMA/Shared",
                "NET/AWS Libfabric/1/GDRDMA/Shared")),
        Arguments.of("020-efa-cloudwatch-timestamp-on-separate-lines-ofi-init.log", List.of()),
        Arguments.of("021-efa-ofi-plugin-init-failed-fallback-socket-mpirun-tags.log", List.of()),
        Arguments.of(
            "022-nccl24-efa-horovod-mpirun-old-ring-libfabric-av-warn.log",
            List.of("NET/AWS Libfabric/0", "P2P/IPC")),
        Arguments.of("023-efa-p5en-ofi-selected-provider-using-network-libfabric.log", List.of()),
        Arguments.of("024-efa-cloudwatch-doubled-columns-nccl2215-efa-empty-list.log", List.of()),
        Arguments.of(
            "025-ray-pid-prefix-p2p-ipc-direct-shm-init-complete.log",
            List.of("P2P/IPC", "direct shared memory")),
        Arguments.of(
            "026-mpirun-tags-p2p-indirect-eks.log",
            List.of(
                "P2P/indirect/10[2]",
                "P2P/indirect/17[1]",
                "P2P/indirect/19[3]",
                "P2P/indirect/1[1]",
                "P2P/indirect/21[5]",
                "P2P/indirect/28[4]",
                "P2P/indirect/29[5]",
                "P2P/indirect/2[2]",
                "P2P/indirect/3[3]",
                "P2P/indirect/5[5]")),
        Arguments.of(
            "027-ray-actor-prefix-python-timestamp-direct-pointer-alloc-warn.log",
            List.of("P2P/direct pointer/read")),
        Arguments.of("028-nccl218-shm-direct-direct-two-nodes.log", List.of("SHM/direct/direct")),
        Arguments.of(
            "029-nccl2x-ib-gdrdma-p2p-direct-pointer-init-complete-no-nvmldev.log",
            List.of("NET/IB/0/GDRDMA", "P2P/direct pointer")),
        Arguments.of("030-pdsh-host-prefix-nvls-not-available-nvls-cuda-init-error.log", List.of()),
        Arguments.of("031-pdsh-host-prefix-sharp-plugin-ibext-init-start.log", List.of()),
        Arguments.of("032-ib-plugin-completion-status12-ipv6-gids.log", List.of()),
        Arguments.of(
            "033-ibext-v8-plugin-receive-nvls-tree-64ranks.log",
            List.of("NET/IBext_v8/1", "NET/IBext_v8/2")),
        Arguments.of(
            "034-rank-bracket-prefix-socket-shm-two-nodes.log",
            List.of("NET/Socket/0", "SHM/direct/direct")),
        Arguments.of(
            "035-kubectl-timestamps-plus-nccl-timestamp-bootstrap-connection-reset.log", List.of()),
        Arguments.of("036-mpirun-timestamp-output-tag-output-proxy-warn.log", List.of()),
        Arguments.of("037-mpirun-timestamp-output-using-network-ib-topology-dump.log", List.of()),
        Arguments.of(
            "038-nccl2x-h20-two-nodes-nnodes-mnnvl-new-ring-format-ib-gdrdma-cumem.log",
            List.of("NET/IB/2/GDRDMA", "NET/IB/3/GDRDMA", "P2P/CUMEM")),
        Arguments.of("039-newest-format-gin-plugin-rank-tagged-init-start.log", List.of()),
        Arguments.of(
            "040-nccl262-rank-prefix-ib-receive-ibv-modify-qp-invalid-argument.log",
            List.of("NET/IB/2", "P2P/IPC")),
        Arguments.of("041-nccl278-roce-ibv-modify-qp-no-such-device.log", List.of()),
        Arguments.of("042-nccl2276-version-as-info-line-socket-ifname-set-to.log", List.of()),
        Arguments.of("043-python-logging-prefix-new-ring-format-24-channels.log", List.of()),
        Arguments.of("044-nccl248-blank-line-separated-no-ibverbs-socket.log", List.of()),
        Arguments.of("045-bootstrap-no-usable-listening-interface.log", List.of()),
        Arguments.of("046-torchx-role-rank-prefix-socket-ifname-not-found.log", List.of()),
        Arguments.of(
            "047-torchrun-rank-prefix-efa-libfabric-gdrdma-cumem.log",
            List.of("NET/Libfabric/0/GDRDMA", "P2P/CUMEM")),
        Arguments.of(
            "048-torchrun-rank-prefix-mnnvl-nvls-available-compact-channel-list.log", List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("logs")
  void readsEveryLineAndTheListedTransports(String file, List<String> vias) {
    Job job = Fixtures.read("nccl/public/" + file);

    assertThat(job.unrecognized().count())
        .as("unrecognized: %s", job.unrecognized().samples())
        .isZero();
    assertThat(
            job.communicators().stream()
                .flatMap(c -> c.edges().stream())
                .map(e -> e.path().raw())
                .distinct()
                .sorted()
                .toList())
        .isEqualTo(vias);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "015-nccl-builtin-timestamps-nvls-cuda-failure.log, nvls-error",
    "030-pdsh-host-prefix-nvls-not-available-nvls-cuda-init-error.log, nvls-error",
    "016-nccl-builtin-timestamps-shm-no-space-left.log, shm-exhausted",
    "017-nccl25-posix-fallocate-no-space-direct-shm.log, shm-exhausted",
    "018-nccl218-shm-failed-to-extend-dev-shm.log, shm-exhausted",
    "032-ib-plugin-completion-status12-ipv6-gids.log, ib-error",
    "040-nccl262-rank-prefix-ib-receive-ibv-modify-qp-invalid-argument.log, ib-error",
    "041-nccl278-roce-ibv-modify-qp-no-such-device.log, ib-error",
    "045-bootstrap-no-usable-listening-interface.log, socket-interface",
    "021-efa-ofi-plugin-init-failed-fallback-socket-mpirun-tags.log, net-plugin-fallback",
    "011-nccl2x-p2p-direct-pointer-read-ib-no-gdr.log, gdr-disabled",
    "003-nccl256-direct-shared-memory-old-trees.log, p2p-unavailable"
  })
  void failuresFindTheirRule(String file, String id) {
    List<String> ids =
        Diagnoser.standard().diagnose(Fixtures.read("nccl/public/" + file)).findings().stream()
            .map(Finding::id)
            .toList();
    assertThat(ids).contains(id);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "019-efa-cloudwatch-prefix-pxn-libfabric-shared.log",
    "038-nccl2x-h20-two-nodes-nnodes-mnnvl-new-ring-format-ib-gdrdma-cumem.log",
    "047-torchrun-rank-prefix-efa-libfabric-gdrdma-cumem.log",
    "008-nccl2x-ib-gdrdma-p2p-ipc-read-two-nodes.log"
  })
  void healthyRdmaAndP2pPathsRaiseNothing(String file) {
    assertThat(Diagnoser.standard().diagnose(Fixtures.read("nccl/public/" + file)).hasErrors())
        .isFalse();
    assertThat(
            Diagnoser.standard().diagnose(Fixtures.read("nccl/public/" + file)).findings().stream()
                .map(Finding::id))
        .doesNotContain(
            "p2p-unavailable", "inter-node-tcp", "same-host-over-network", "gdr-disabled");
  }
}
