package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.address;
import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SameHostOverNetworkRuleTest {

  /** One process driving two GPUs with P2P and SHM disabled (the h200x4 ar-sock fixture, cut). */
  static final String P2P_AND_SHM_DISABLED =
      """
      vm:1961:1961 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1
      vm:1961:1961 [0] NCCL INFO NCCL_SHM_DISABLE set by environment to 1.
      vm:1961:1980 [0] NCCL INFO ncclCommInitRankConfig comm 0x10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 60 commId 0xabc - Init START
      vm:1961:1981 [1] NCCL INFO ncclCommInitRankConfig comm 0x11 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 70 commId 0xabc - Init START
      vm:1961:1980 [0] NCCL INFO comm 0x10 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0
      vm:1961:1981 [1] NCCL INFO comm 0x11 rank 1 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0
      vm:1961:1995 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] [send] via NET/Socket/0
      vm:1961:1996 [0] NCCL INFO Channel 00/0 : 1[1] -> 0[0] [receive] via NET/Socket/0
      vm:1961:1996 [0] NCCL INFO Channel 01/0 : 1[1] -> 0[0] [receive] via NET/Socket/0
      """;

  static Stream<Case> cases() {
    return Stream.of(
        given("one process, two GPUs, P2P and SHM disabled", P2P_AND_SHM_DISABLED)
            .expect(
                error(
                        "Ranks on the same node talk over the network",
                        "1 pair(s) of ranks on the same node",
                        "pairs 0-1.",
                        "The environment disables both P2P and SHM",
                        "Remove NCCL_P2P_DISABLE and NCCL_SHM_DISABLE")
                    .at("a.log:7", "a.log:8")),
        given(
                "two processes with one hostname that NCCL counted as two nodes",
                rankOfTwo(0, "node-a", 2, "NET/Socket/0"),
                rankOfTwo(1, "node-a", 2, "NET/Socket/0"))
            .expect(
                error(
                        "pairs 0-1.",
                        "NCCL counted these ranks as different nodes (nNodes 2) although they share the hostname.")
                    .at("a.log:6", "b.log:5", "b.log:6", "a.log:5")),
        given(
                "two pods that the node map puts on one node, over EFA",
                rankOfTwo(0, "pod-a", 2, "NET/AWS Libfabric/0/GDRDMA"),
                rankOfTwo(1, "pod-b", 2, "NET/AWS Libfabric/0/GDRDMA"))
            .nodes("pod-a", "node-1", "pod-b", "node-1")
            .expect(
                error("pairs 0-1.", "These ranks run in different pods on the same node")
                    .at("a.log:6", "b.log:5", "b.log:6", "a.log:5")),
        given(
            "two machines that share the hostname ubuntu, told apart by their bootstrap addresses",
            rankOfTwo(0, "ubuntu", 2, "NET/IB/0/GDRDMA"),
            rankOfTwo(1, "ubuntu", 2, "NET/IB/0/GDRDMA").replace(address("ubuntu"), "10.0.0.2")),
        given(
            "network between different hostnames",
            rankOfTwo(0, "node-a", 2, "NET/Socket/0"),
            rankOfTwo(1, "node-b", 2, "NET/Socket/0")),
        given(
                "two pods that the node map puts on different nodes",
                rankOfTwo(0, "pod-a", 2, "NET/Socket/0"),
                rankOfTwo(1, "pod-b", 2, "NET/Socket/0"))
            .nodes("pod-a", "node-1", "pod-b", "node-2"),
        given(
            "P2P between GPUs of one host",
            rankOfTwo(0, "vm", 1, "P2P/CUMEM/read"),
            rankOfTwo(1, "vm", 1, "P2P/CUMEM/read")),
        given(
            "SHM between GPUs of one host",
            rankOfTwo(0, "vm", 1, "SHM/direct/direct"),
            rankOfTwo(1, "vm", 1, "SHM/direct/direct")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new SameHostOverNetwork(), "same-host-over-network", c);
  }
}
