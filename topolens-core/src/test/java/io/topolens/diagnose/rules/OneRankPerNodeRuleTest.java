package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.info;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class OneRankPerNodeRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "two pods of one GPU each, over sockets",
                rankOfTwo(0, "pod-a", 2, "NET/Socket/0"),
                rankOfTwo(1, "pod-b", 2, "NET/Socket/0"))
            .expect(
                info(
                        "Every rank is its own node",
                        "In communicator 0xabc NCCL counts 2 nodes for 2 ranks",
                        "--node-map")
                    .at("a.log:3")),
        given(
                "two pods of one GPU each, over EFA",
                rankOfTwo(0, "pod-a", 2, "NET/AWS Libfabric/0/GDRDMA"),
                rankOfTwo(1, "pod-b", 2, "NET/AWS Libfabric/0/GDRDMA"))
            .expect(info("NCCL counts 2 nodes for 2 ranks").at("a.log:3")),
        given(
                "a node map was given",
                rankOfTwo(0, "pod-a", 2, "NET/Socket/0"),
                rankOfTwo(1, "pod-b", 2, "NET/Socket/0"))
            .nodes("pod-a", "node-1", "pod-b", "node-2"),
        given(
            "two GPUs on one node",
            rankOfTwo(0, "vm", 1, "P2P/CUMEM/read"),
            rankOfTwo(1, "vm", 1, "P2P/CUMEM/read")),
        given(
            "NCCL counts two nodes but both processes share one hostname",
            rankOfTwo(0, "vm", 2, "NET/Socket/0"),
            rankOfTwo(1, "vm", 2, "NET/Socket/0")),
        given(
            "two nodes of two GPUs each",
            InterNodeTcpRuleTest.NODE_A_RANKS_0_1,
            InterNodeTcpRuleTest.NODE_B_RANKS_2_3));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new OneRankPerNode(), "one-rank-per-node", c);
  }
}
