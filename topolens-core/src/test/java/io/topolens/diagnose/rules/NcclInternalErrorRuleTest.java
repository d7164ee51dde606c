package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
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
                error(
                        "own consistency checks",
                        "one NCCL version, 2.28.3+cuda12.9",
                        "github.com/NVIDIA/nccl/issues")
                    .at("a.log:2")),
        given(
                "ranks of two NCCL builds, the local ranks they grouped wrong (init.cc:1067)",
                """
                node-a:4021:4021 [0] NCCL INFO NCCL version 2.21.5+cuda12.4
                node-a:4021:4090 [0] init.cc:1067 NCCL WARN Failed to determine local ranks rank 0 hostHash 9a3c1e5f7b2d4068 pidHash 5d2e8f1a3c6b9047 localRank -1 localRanks 4 localRank0 0
                """,
                """
                node-b:5021:5021 [0] NCCL INFO NCCL version 2.18.1+cuda12.1
                """)
            .expect(
                error("2 NCCL versions (2.18.1+cuda12.1, 2.21.5+cuda12.4)", "mixed builds")
                    .at("a.log:2")),
        given(
                "a proxy op list check and a socket check: one finding, no version printed",
                """
                node-a:4021:4090 [0] proxy.cc:398 NCCL WARN Proxy append mismatch
                node-a:4021:4091 [0] misc/socket.cc:861 NCCL WARN ncclSocketSend: pass NULL socket
                """)
            .expect(
                error("ncclInternalError")
                    .lacks("The log prints", "The ranks print")
                    .at("a.log:1", "a.log:2")),
        given(
                "net_ib.cc's vNic check (2.28.3, net_ib.cc:905), not the fabric",
                """
                node-a:4021:4090 [0] transport/net_ib.cc:905 NCCL WARN NET/IB : Requested properties for vNic 3, only 2 vNics have been created
                """)
            .expect(error("own consistency checks").at("a.log:1")),
        given(
                "IB's request pool full: the same bookkeeping as the socket transport's, not the"
                    + " fabric (2.28.3 transport/net_ib.cc:1863)",
                """
                node-a:4021:4095 [0] transport/net_ib.cc:1863 NCCL WARN NET/IB : unable to allocate requests
                node-a:4021:4095 [0] NCCL INFO transport/net.cc:1267 -> 3
                """)
            .expect(
                error("own consistency checks").lacks("fired while NCCL unwound").at("a.log:1")),
        given(
                "the socket transport's, the same words (2.28.3 transport/net_socket.cc:491)",
                """
                node-a:4021:4095 [0] transport/net_socket.cc:491 NCCL WARN NET/Socket : unable to allocate requests
                """)
            .expect(error("own consistency checks").at("a.log:1")),
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
