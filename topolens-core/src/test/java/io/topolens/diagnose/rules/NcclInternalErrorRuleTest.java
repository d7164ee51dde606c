package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NCCL's own consistency checks: the WARN formats of NCCL 2.28.3 (file:line from the disassembly)
 * and of older releases, as nccl/messages/README.md lists them.
 */
class NcclInternalErrorRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "the P2P schedule check (init.cc:1218), one NCCL version printed",
                """
                node-a:4021:4021 [0] NCCL INFO NCCL version 2.28.3+cuda12.9
                node-a:4021:4090 [0] init.cc:1218 NCCL WARN P2p schedule creation has bugs.
                """)
            .expect(
                warn(
                        "own consistency checks",
                        "one NCCL version, 2.28.3+cuda12.9",
                        "github.com/NVIDIA/nccl/issues")
                    .at("a.log:2")),
        given(
                "ranks of two NCCL builds, the local ranks they grouped wrong (init.cc:1067)",
                """
                node-a:4021:4021 [0] NCCL INFO NCCL version 2.21.5+cuda12.4
                node-a:4021:4090 [0] init.cc:1067 NCCL WARN Failed to determine local ranks rank 0 hostHash 7e2a1f pidHash 11 localRank -1 localRanks 4 localRank0 0
                """,
                """
                node-b:5021:5021 [0] NCCL INFO NCCL version 2.18.1+cuda12.1
                """)
            .expect(
                warn("2 NCCL versions (2.18.1+cuda12.1, 2.21.5+cuda12.4)", "mixed builds")
                    .at("a.log:2")),
        given(
                "a proxy op list check and a socket check: one finding, no version printed",
                """
                node-a:4021:4090 [0] proxy.cc:398 NCCL WARN Proxy append mismatch
                node-a:4021:4091 [0] misc/socket.cc:861 NCCL WARN ncclSocketSend: pass NULL socket
                """)
            .expect(
                warn("ncclInternalError")
                    .lacks("The log prints", "The ranks print")
                    .at("a.log:1", "a.log:2")),
        given(
                "net_ib.cc's vNic check (2.28.3, net_ib.cc:905), not the fabric",
                """
                node-a:4021:4090 [0] transport/net_ib.cc:905 NCCL WARN NET/IB : Requested properties for vNic 3, only 2 vNics have been created
                """)
            .expect(warn("own consistency checks").at("a.log:1")),
        given(
                "a socket check after the peer closed the connection: the closing cited first",
                """
                node-a:4021:4021 [0] NCCL INFO NCCL version 2.21.5+cuda12.4
                node-a:4021:4090 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer node-b<53735>
                node-a:4021:4090 [0] misc/socket.cc:865 NCCL WARN ncclSocketSend: socket state (4) is not ready
                """)
            .expect(
                warn("fired while NCCL unwound it")
                    .lacks("report it with the lines")
                    .at("a.log:3", "a.log:2")),
        given(
            "teardown after an earlier failure is not a check (the catch-all's)",
            """
            node-a:4021:4090 [0] init.cc:2274 NCCL WARN commReclaim: cleanup comm 0x7f2a5c001000 rank 3 failed in destroy/abort, error 3
            node-a:4021:4090 [0] proxy.cc:1484 NCCL WARN Call to close failed: Bad file descriptor
            """),
        given(
            "a connection the peer closed is the network's, not a check",
            """
            node-a:4021:4090 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer node-b<53735>
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new NcclInternalError(), "nccl-internal-error", c);
  }
}
