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

  /**
   * RCCL 2.10.3, two nodes of one GPU each over NET/Socket/1 (hsn0), bond0 first in the socket list
   * (https://github.com/ROCm/rccl/issues/526, verbatim lines).
   */
  static final String RCCL_TWO_NODES_BOND0 =
      """
      crusher002:81767:81767 [0] NCCL INFO Bootstrap : Using bond0:100.65.2.2<0>
      crusher002:81767:81767 [0] NCCL INFO NET/IB : No device found.
      crusher002:81767:81767 [0] NCCL INFO NET/Socket : Using [0]bond0:100.65.2.2<0> [1]hsn0:10.129.0.13<0> [2]hsn1:10.129.0.14<0> [3]hsn2:10.129.0.15<0> [4]hsn3:10.129.0.16<0>
      crusher002:81767:81767 [0] NCCL INFO Using network Socket
      RCCL version 2.10.3+hip5.0
      crusher003:24359:24359 [0] NCCL INFO Bootstrap : Using bond0:100.65.2.3<0>
      crusher003:24359:24359 [0] NCCL INFO NET/Socket : Using [0]bond0:100.65.2.3<0> [1]hsn0:10.129.0.17<0> [2]hsn1:10.129.0.18<0> [3]hsn2:10.129.0.19<0> [4]hsn3:10.129.0.20<0>
      crusher003:24359:24359 [0] NCCL INFO Using network Socket
      crusher003:24359:24369 [0] NCCL INFO Trees [0] -1/-1/-1->1->0 [1] 0/-1/-1->1->-1 [2] -1/-1/-1->1->0 [3] 0/-1/-1->1->-1 comm 0x7f9e80000ef0 nRanks 02 busId c1000
      crusher002:81767:81780 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] -1/-1/-1->0->1 [2] 1/-1/-1->0->-1 [3] -1/-1/-1->0->1 comm 0x7f6400000ef0 nRanks 02 busId c1000
      crusher003:24359:24369 [0] NCCL INFO Channel 00 : 0[c1000] -> 1[c1000] [receive] via NET/Socket/1 comm 0x7f9e80000ef0 nRanks 02
      crusher002:81767:81780 [0] NCCL INFO Channel 00 : 0[c1000] -> 1[c1000] [send] via NET/Socket/1 comm 0x7f6400000ef0 nRanks 02
      crusher003:24359:24369 [0] NCCL INFO comm 0x7f9e80000ef0 rank 1 nranks 2 cudaDev 0 busId c1000 used 27440 bytes - Init COMPLETE
      crusher002:81767:81780 [0] NCCL INFO comm 0x7f6400000ef0 rank 0 nranks 2 cudaDev 0 busId c1000 used 27440 bytes - Init COMPLETE
      """;

  /**
   * NCCL 2.4.7 on AWS hosts, each printing its socket interface and IB finding no device; no
   * connection line (https://github.com/NVIDIA/nccl/issues/226, verbatim lines).
   */
  static final String NCCL_247_HOSTS_SOCKET_NO_CHANNELS =
      """
      ip-172-31-0-11:45384:45384 [0] NCCL INFO NET/IB : No device found.
      NCCL version 2.4.7+cuda9.2
      ip-172-31-10-182:45407:45407 [0] NCCL INFO NET/Socket : Using [0]ens3:172.31.10.182<0>
      ip-172-31-10-182:45407:45407 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).
      ip-172-31-15-113:11434:11434 [0] NCCL INFO NET/Socket : Using [0]ens3:172.31.15.113<0>
      ip-172-31-15-113:11434:11434 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).
      ip-172-31-10-182:45407:45407 [0] NCCL INFO NET/IB : No device found.
      """;

  /** The line AReaL's issue quotes alone (https://github.com/areal-project/AReaL/issues/639). */
  static final String AREAL_BOND0_LINE =
      """
      NCCL INFO NET/Socket : Using [0]bond0:200.8.184.2<0>
      """;

  /**
   * RCCL 2.20.5 on one host: sockets over bond0, nNodes 1
   * (https://github.com/ROCm/rccl/issues/1454, verbatim lines).
   */
  static final String RCCL_ONE_HOST_BOND0 =
      """
      UVOSLinux:31965:31965 [0] NCCL INFO Bootstrap : Using bond0:10.0.0.2<0>
      RCCL version 2.20.5+hip6.2 Unknown
      UVOSLinux:31965:31971 [0] NCCL INFO NET/Socket : Using [0]bond0:10.0.0.2<0> [1]uvosvpn:10.8.0.3<0>
      UVOSLinux:31965:31971 [0] NCCL INFO Using network Socket
      UVOSLinux:31965:31972 [1] NCCL INFO Using network Socket
      UVOSLinux:31965:31972 [1] NCCL INFO comm 0x5fa38772fe50 rank 1 nranks 2 cudaDev 1 busId 83000 commId 0xb8d3e001a8f1faf - Init START
      UVOSLinux:31965:31971 [0] NCCL INFO comm 0x5fa38764e0a0 rank 0 nranks 2 cudaDev 0 busId c3000 commId 0xb8d3e001a8f1faf - Init START
      UVOSLinux:31965:31972 [1] NCCL INFO comm 0x5fa38772fe50 rank 1 nRanks 2 nNodes 1 localRanks 2 localRank 1 MNNVL 0
      UVOSLinux:31965:31971 [0] NCCL INFO comm 0x5fa38764e0a0 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0
      """;

  /**
   * NCCL 2.4.2: bootstrap prints NET/Socket over IPoIB, then IB is the network
   * (https://github.com/pytorch/pytorch/issues/25767, verbatim lines; held-out set 14's s15).
   */
  static final String NCCL_242_BOOTSTRAP_SOCKET_THEN_IB =
      """
      SH-IDC1-10-5-34-88:27642:27642 [0] NCCL INFO NET/Socket : Using [0]ib0:10.5.134.88<0>
      SH-IDC1-10-5-34-88:27642:27642 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).
      SH-IDC1-10-5-34-88:27642:27642 [0] NCCL INFO NET/IB : Using [0]mlx4_0:1/IB ; OOB ib0:10.5.134.88<0>
      NCCL version 2.4.2+cuda9.0
      """;

  /**
   * NCCL 2.28.9 choosing sockets on a host without IB devices: IB prints its OOB interface, then
   * fails ({@code fixtures/h200x4/ar-p2p.log} lines 19-25, measured here).
   */
  static final String H200_SOCKET_INIT =
      """
      vm:1704:1725 [2] NCCL INFO NET/IB : No device found.
      vm:1704:1725 [2] NCCL INFO NET/IB : Using [RO]; OOB eth0:192.0.2.2<0>
      vm:1704:1725 [2] NCCL INFO NET/Socket : Using [0]eth0:192.0.2.2<0>
      vm:1704:1725 [2] NCCL INFO Initialized NET plugin Socket
      vm:1704:1725 [2] NCCL INFO Using network Socket
      """;

  /**
   * NCCL 2.3.5 on two hosts choosing IB in its words of then ({@code Using internal Network IB}),
   * its socket interface printed as {@code NET : Using interface ib0}
   * (https://github.com/horovod/horovod/issues/639, verbatim lines; the version line left out).
   */
  static final String NCCL_235_TWO_HOSTS_IB =
      """
      c4140-01:147406:148900 [0] NCCL INFO NET : Using interface ib0:192.168.1.35<0>
      c4140-01:147406:148900 [0] NCCL INFO NET/IB : Using interface ib0 for sideband communication
      c4140-01:147406:148900 [0] NCCL INFO NET/IB: [0] mlx5_0:1/IB
      c4140-01:147406:148900 [0] NCCL INFO Using internal Network IB
      c4140-02:226881:226933 [0] NCCL INFO NET : Using interface ib0:192.168.1.36<0>
      c4140-02:226881:226933 [0] NCCL INFO NET/IB : Using interface ib0 for sideband communication
      c4140-02:226881:226933 [0] NCCL INFO NET/IB: [0] mlx5_0:1/IB
      c4140-02:226881:226933 [0] NCCL INFO Using internal Network IB
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
            rankOfTwo(0, "node-a", 1, "NET/Socket/0")),
        given(
                "RCCL, two nodes, bond0 listed, connections before the communicator's lines",
                RCCL_TWO_NODES_BOND0)
            .expect(
                warn(
                        "Traffic between nodes runs over TCP sockets (NCCL's network is Socket)",
                        "over bond0, hsn0, hsn1, hsn2, hsn3 (Using network Socket)",
                        "this job spans nodes (its ranks)",
                        "bond0 is a bonded interface",
                        "NCCL_IB_HCA=mlx5_bond")
                    .at("a.log:4", "a.log:8", "a.log:3", "a.log:7", "a.log:12", "a.log:11")),
        given(
                "NCCL 2.4.7, two hosts print their socket network, IB found no device, no connection line",
                NCCL_247_HOSTS_SOCKET_NO_CHANNELS)
            .expect(
                warn(
                        "Traffic between nodes runs over TCP sockets (NCCL's network is Socket)",
                        "over ens3 (NET/Socket : Using ...)",
                        "this job spans nodes (2 nodes printed that choice)")
                    .lacks("bonded", "If the job spans", "do not show")
                    .at("a.log:3", "a.log:5")),
        given(
                "AReaL's one line: sockets over bond0, nothing shows the job's nodes",
                AREAL_BOND0_LINE)
            .expect(
                warn(
                        "NCCL's network is TCP sockets: between nodes, if the job spans them",
                        "The lines do not show how many nodes the job has",
                        "bond0 is a bonded interface",
                        "NCCL_IB_HCA=mlx5_bond",
                        "NCCL_NET=IB")
                    .at("a.log:1")),
        given("one host, sockets over bond0, NCCL counted one node", RCCL_ONE_HOST_BOND0),
        given(
            "NCCL 2.4.2's bootstrap prints NET/Socket over ib0, then IB is the network",
            NCCL_242_BOOTSTRAP_SOCKET_THEN_IB),
        given("NCCL 2.3.5 on two hosts, Using internal Network IB", NCCL_235_TWO_HOSTS_IB),
        given(
            "one host over eth0, nothing shows its nodes and no RDMA hardware",
            """
            vm:1704:1725 [2] NCCL INFO NET/IB : No device found.
            vm:1704:1725 [2] NCCL INFO NET/Socket : Using [0]eth0:192.0.2.2<0>
            vm:1704:1725 [2] NCCL INFO Using network Socket
            """),
        given(
                "NCCL 2.28.9 on two hosts: IB's OOB line, no device, then sockets; no connection line",
                H200_SOCKET_INIT.replace("vm:", "node-a:"),
                H200_SOCKET_INIT.replace("vm:", "node-b:"))
            .expect(
                warn(
                        "Traffic between nodes runs over TCP sockets (NCCL's network is Socket)",
                        "this job spans nodes (2 nodes printed that choice)")
                    .at("a.log:5", "b.log:5", "a.log:3", "b.log:3")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new InterNodeTcp(), "inter-node-tcp", c);
  }
}
