package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class GdrDisabledRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "InfiniBand between nodes without /GDRDMA",
                rankOfTwo(0, "node-a", 2, "NET/IB/0"),
                rankOfTwo(1, "node-b", 2, "NET/IB/0"))
            .expect(
                warn(
                        "Network traffic without GPUDirect RDMA",
                        "1 RDMA network connection(s) run without GPUDirect RDMA (no /GDRDMA after the device): pairs 0-1.",
                        "nvidia-peermem")
                    .lacks("reported GPUDirect RDMA off")
                    .at("a.log:6", "b.log:5", "b.log:6", "a.log:5")),
        given(
                "EFA between nodes without /GDRDMA",
                rankOfTwo(0, "node-a", 2, "NET/AWS Libfabric/0/Shared"),
                rankOfTwo(1, "node-b", 2, "NET/AWS Libfabric/0/Shared"))
            .expect(warn("pairs 0-1.").at("a.log:6", "b.log:5", "b.log:6", "a.log:5")),
        given(
                "the IB transport reports GDR disabled for an HCA",
                """
                node-a:100:100 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module or not supported by GPU)
                node-a:100:100 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 1 'mlx5_1'
                """)
            .expect(
                warn("The network transport reported GPUDirect RDMA off for mlx5_0.")
                    .lacks("mlx5_1", "pairs")
                    .at("a.log:1")),
        given(
                "GDR reported off and connections without /GDRDMA: the report line comes first",
                """
                node-a:100:100 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'
                node-a:100:110 [0] NCCL INFO ncclCommInitRankConfig comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init START
                node-a:100:110 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0
                """)
            .expect(warn("pairs 0-1.", "off for mlx5_0").at("a.log:1", "a.log:3")),
        given(
            "InfiniBand with /GDRDMA",
            rankOfTwo(0, "node-a", 2, "NET/IB/0/GDRDMA"),
            rankOfTwo(1, "node-b", 2, "NET/IB/0/GDRDMA")),
        given(
            "sockets cannot do GDR and are not reported",
            rankOfTwo(0, "node-a", 2, "NET/Socket/0"),
            rankOfTwo(1, "node-b", 2, "NET/Socket/0")),
        given(
            "GCP's FastSocket plugin is TCP, with no RDMA to miss (nccl issue 651, held-out set 27"
                + " l07)",
            """
            a100-4-4-0-train0:1:439 [0] NCCL INFO NET/FastSocket : Using [0]ens8:10.128.0.107<0>
            a100-4-4-0-train0:1:439 [0] NCCL INFO NET/FastSocket plugin initialized
            a100-4-4-0-train0:1:526 [0] NCCL INFO NET/FastSocket : Connected after 60 retries.
            a100-4-4-0-train0:1:526 [0] NCCL INFO Channel 01 : 4[40] -> 0[40] [receive] via NET/FastSocket/0
            """),
        given(
            "GDR enabled for the HCA",
            """
            node-a:100:100 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'
            """),
        given(
            "P2P inside a node",
            rankOfTwo(0, "vm", 1, "P2P/CUMEM/read"),
            rankOfTwo(1, "vm", 1, "P2P/CUMEM/read")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new GdrDisabled(), "gdr-disabled", c);
  }
}
