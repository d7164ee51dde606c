package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class InterNodeTcpRuleTest {

  /** Four ranks, two per node, one process per node: P2P inside a node, sockets between. */
  static final String NODE_A_RANKS_0_1 =
      """
      node-a:100:110 [0] NCCL INFO ncclCommInitRankConfig comm 0x10 rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 1000 commId 0xfeed - Init START
      node-a:100:111 [1] NCCL INFO ncclCommInitRankConfig comm 0x11 rank 1 nranks 4 cudaDev 1 nvmlDev 1 busId 2000 commId 0xfeed - Init START
      node-a:100:110 [0] NCCL INFO comm 0x10 rank 0 nRanks 4 nNodes 2 localRanks 2 localRank 0 MNNVL 0
      node-a:100:111 [1] NCCL INFO comm 0x11 rank 1 nRanks 4 nNodes 2 localRanks 2 localRank 1 MNNVL 0
      node-a:100:120 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read
      node-a:100:121 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/Socket/0
      node-a:100:120 [0] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [receive] via NET/Socket/0
      """;

  static final String NODE_B_RANKS_2_3 =
      """
      node-b:200:210 [0] NCCL INFO ncclCommInitRankConfig comm 0x20 rank 2 nranks 4 cudaDev 0 nvmlDev 0 busId 1000 commId 0xfeed - Init START
      node-b:200:211 [1] NCCL INFO ncclCommInitRankConfig comm 0x21 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 2000 commId 0xfeed - Init START
      node-b:200:210 [0] NCCL INFO comm 0x20 rank 2 nRanks 4 nNodes 2 localRanks 2 localRank 0 MNNVL 0
      node-b:200:211 [1] NCCL INFO comm 0x21 rank 3 nRanks 4 nNodes 2 localRanks 2 localRank 1 MNNVL 0
      node-b:200:220 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/Socket/0
      node-b:200:220 [0] NCCL INFO Channel 00/0 : 2[0] -> 3[1] via P2P/CUMEM/read
      node-b:200:221 [1] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [send] via NET/Socket/0
      """;

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "socket between node-a and node-b",
                rankOfTwo(0, "node-a", 2, "NET/Socket/0"),
                rankOfTwo(1, "node-b", 2, "NET/Socket/0"))
            .expect(
                warn(
                        "Traffic between nodes runs over TCP sockets",
                        "1 rank pair(s) on different nodes",
                        "pairs 0-1.")
                    .at("a.log:6", "b.log:5", "b.log:6", "a.log:5")),
        given(
                "two nodes of two GPUs: only the node-crossing pairs are named",
                NODE_A_RANKS_0_1,
                NODE_B_RANKS_2_3)
            .expect(
                warn("2 rank pair(s) on different nodes", "pairs 1-2, 0-3.")
                    .lacks("0-1", "2-3")
                    .at("a.log:6", "b.log:5", "b.log:7", "a.log:7")),
        given("only node-a's log, NCCL counted 2 nodes", rankOfTwo(0, "node-a", 2, "NET/Socket/0"))
            .expect(warn("1 rank pair(s)", "pairs 0-1.").at("a.log:6", "a.log:5")),
        given(
            "InfiniBand between nodes",
            rankOfTwo(0, "node-a", 2, "NET/IB/0/GDRDMA"),
            rankOfTwo(1, "node-b", 2, "NET/IB/0/GDRDMA")),
        given(
            "EFA between nodes",
            rankOfTwo(0, "node-a", 2, "NET/AWS Libfabric/0/GDRDMA"),
            rankOfTwo(1, "node-b", 2, "NET/AWS Libfabric/0/GDRDMA")),
        given(
            "socket between two processes of one host is same-host, not inter-node",
            rankOfTwo(0, "vm", 2, "NET/Socket/0"),
            rankOfTwo(1, "vm", 2, "NET/Socket/0")),
        given(
            "only one log and NCCL counted a single node",
            rankOfTwo(0, "node-a", 1, "NET/Socket/0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new InterNodeTcp(), "inter-node-tcp", c);
  }
}
