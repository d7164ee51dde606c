package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every transport refused a pair of ranks. Sources of the texts: nccl/messages/README.md (NCCL
 * 2.28.3 transport.cc:40, init.cu of 2.3-2.4; NVIDIA/nccl pull 602 for NCCL_NET_DISABLE_INTRA).
 */
class NoTransportRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "both intra-node transports disabled, the network kept off the host's ranks (2.28.3"
                    + " transport.cc's format)",
                """
                node-a:4021:4021 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1
                node-a:4021:4021 [0] NCCL INFO NCCL_SHM_DISABLE set by environment to 1
                node-a:4021:4021 [0] NCCL INFO NCCL_NET_DISABLE_INTRA set by environment to 1
                node-a:4021:4090 [0] transport.cc:40 NCCL WARN No transport found for rank 0[1b000] -> rank 1[2c000]
                node-a:4021:4090 [0] NCCL INFO transport.cc:189 -> 2
                """)
            .expect(
                error(
                        "No transport could connect two ranks",
                        "NCCL_P2P_DISABLE=1, NCCL_SHM_DISABLE=1, NCCL_NET_DISABLE_INTRA=1 set",
                        "unset NCCL_P2P_DISABLE and NCCL_SHM_DISABLE")
                    .at("a.log:4", "a.log:1", "a.log:2", "a.log:3")),
        given(
                "the line alone: no setting to name (2.28.3's format)",
                """
                node-a:4021:4090 [0] transport.cc:40 NCCL WARN No transport found for rank 0[1b000] -> rank 8[1b000]
                """)
            .expect(
                error("separate containers or pods on one node", "hostIPC")
                    .lacks("The log shows")
                    .at("a.log:1")),
        given(
                "init.cu of 2.3-2.4",
                """
                node-a:4021:4090 [0] init.cu:1 NCCL WARN No transport found !
                """)
            .expect(error("all refused").at("a.log:1")),
        given(
                "NCCL_HOSTID shared by two nodes: one host to NCCL (its value named)",
                """
                node-a:4021:4021 [0] NCCL INFO NCCL_HOSTID set by environment to rack1
                node-a:4021:4090 [0] transport.cc:40 NCCL WARN No transport found for rank 0[1b000] -> rank 8[2c000]
                """)
            .expect(error("NCCL_HOSTID=rack1 set", "makes them one host").at("a.log:2", "a.log:1")),
        given(
                "settings that take nothing away are not named (P2P switched on, the widest P2P"
                    + " level)",
                """
                node-a:4021:4021 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 0
                node-a:4021:4021 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to SYS
                node-a:4021:4021 [0] NCCL INFO NCCL_SHM_DISABLE set by environment to 1
                node-a:4021:4090 [0] transport.cc:40 NCCL WARN No transport found for rank 0[1b000] -> rank 1[2c000]
                """)
            .expect(
                error("The log shows NCCL_SHM_DISABLE=1 set")
                    .lacks("NCCL_P2P_DISABLE=0", "NCCL_P2P_LEVEL=SYS")
                    .at("a.log:4", "a.log:3")),
        given(
            "proxy.cc's bookkeeping check is not this (nccl-internal-error's)",
            """
            node-a:4021:4090 [0] proxy.cc:569 NCCL WARN Rank 3 has no transport for send peer 4 on channel 2/8
            """),
        given(
            "the settings without the failure: nothing refused",
            """
            node-a:4021:4021 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1
            node-a:4021:4090 [0] NCCL INFO Channel 00/0 : 0[1b000] -> 1[2c000] via SHM/direct/direct
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new NoTransport(), "no-transport", c);
  }
}
