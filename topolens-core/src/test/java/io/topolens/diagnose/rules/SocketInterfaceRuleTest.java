package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.address;
import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SocketInterfaceRuleTest {

  /** Rank {@code rank} of a two-rank job on {@code host}, bootstrapping over {@code iface}. */
  static String rank(int rank, String host, String iface) {
    return """
        {h}:1{r}0:1{r}0 [0] NCCL INFO Bootstrap : Using {i}
        {h}:1{r}0:1{r}1 [0] NCCL INFO ncclCommInitRankConfig comm 0x{r}1 rank {r} nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init START
        """
        .replace("{h}", host)
        .replace("{r}", String.valueOf(rank))
        .replace("{i}", iface);
  }

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "horovodrun found no interface name every host has (driver_service.py's format; the"
                    + " hosts' interfaces as horovod issue 1401's eno1 and an IB host)",
                """
                Exception: Unable to find a set of common task-to-task communication interfaces: [(0, {'lo': [('127.0.0.1', 12345)], 'eno1': [('10.0.0.1', 12345)]}), (1, {'lo': [('127.0.0.1', 12346)], 'ib0': [('10.1.0.2', 12346)]})]
                """)
            .expect(
                error(
                        "horovodrun found no network interface every host shares",
                        "--network-interface")
                    .at("a.log:1")),
        given(
                "Gloo fell back to loopback in a hostNetwork pod, then its mesh failed"
                    + " (https://github.com/aws-samples/aws-do-eks/pull/50)",
                """
                [rank8] Warning: Unable to resolve hostname to a (local) address. Using the loopback
                        address as fallback. Manually set the network interface with GLOO_SOCKET_IFNAME
                [rank8] Gloo connectFullMesh failed ... timed out connecting: SO_ERROR: Connection refused,
                        remote=[127.0.0.1]:14215
                RuntimeError: Gloo connectFullMesh failed ...
                EngineCore failed to start.
                """)
            .expect(
                error(
                        "PyTorch's Gloo group bound to loopback, and its ranks could not connect",
                        "GLOO_SOCKET_IFNAME",
                        "getent hosts")
                    .at("a.log:1", "a.log:3", "a.log:5")),
        given(
            "Gloo's loopback fallback alone, eight ranks of one host that then went on, is no finding"
                + " (https://github.com/wtdcode/vllm-backport/issues/14)",
            """
            [rank7]:[W806 14:25:27.650991133 ProcessGroupGloo.cpp:524] Warning: Unable to resolve hostname to a (local) address. Using the loopback address as fallback. Manually set the network interface to bind to with GLOO_SOCKET_IFNAME. (function operator())
            [rank1]:[W806 14:25:27.665422024 ProcessGroupGloo.cpp:524] Warning: Unable to resolve hostname to a (local) address. Using the loopback address as fallback. Manually set the network interface to bind to with GLOO_SOCKET_IFNAME. (function operator())
            """),
        given(
            "a mesh failure without the loopback fallback is not this finding",
            """
            RuntimeError: Gloo connectFullMesh failed with [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:144] no error
            """),
        given(
                "the proxy's connect over a docker bridge gateway, dask on AWS"
                    + " (https://github.com/dmlc/xgboost/issues/7982)",
                """
                ip-172-31-12-104:28056:39685 [0] proxy.cc:1040 NCCL WARN [Proxy Service 3] Failed to execute operation Connect from rank 3, retcode 2
                ip-172-31-12-104:28056:39685 [0] misc/socket.cc:503 NCCL WARN Net : Call to recv from 172.18.0.1<34483> failed : Broken pipe
                ip-172-31-12-104:28056:17126 [0] proxy.cc:808 NCCL WARN Proxy Call to rank 3 failed (Connect)
                """)
            .expect(
                warn("NCCL's sockets reached a docker bridge address", "NCCL_SOCKET_IFNAME")
                    .at("a.log:2")),
        given(
            "a peer on a routed 172.31 address is no bridge (nccl issue 2076's form)",
            """
            node-a:1:2 [0] misc/socket.cc:503 NCCL WARN Net : Call to recv from 172.31.12.7<34483> failed : Broken pipe
            """),
        given(
                "NCCL before 2.4: its WARN header lacks the word NCCL (nccl issue 210)",
                """
                include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol
                """)
            .expect(error("NCCL found no usable socket interface").at("a.log:1")),
        given(
                "the same with the old full header",
                """
                node-a:4321:4321 [0] include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol
                """)
            .expect(error("NCCL found no usable socket interface").at("a.log:1")),
        given(
            "another logger's WARN line is not NCCL's",
            """
            2019-04-20 12:00:01 WARN Socket creation failed : Address family not supported by protocol
            node-a:100:100 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>
            """),
        given(
                "bootstrap on lo in a job over two hosts",
                rank(0, "node-a", "lo:127.0.0.1<0>"),
                rank(1, "node-b", "lo:127.0.0.1<0>"))
            .expect(
                error(
                        "NCCL uses an interface other nodes may not reach: lo (loopback)",
                        "This job spans nodes",
                        "NCCL_SOCKET_IFNAME=eth0")
                    .at("a.log:1", "b.log:1")),
        given(
                "bootstrap on lo, one log, but NCCL counted two nodes",
                """
                node-a:100:100 [0] NCCL INFO Bootstrap : Using [0]lo:127.0.0.1<0>
                node-a:100:110 [0] NCCL INFO ncclCommInitRankConfig comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0xabc - Init START
                node-a:100:110 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0
                """)
            .expect(error("lo (loopback)").at("a.log:1")),
        given(
                "bootstrap on docker0 across two hosts",
                rank(0, "node-a", "docker0:172.17.0.1<0>"),
                rank(1, "node-b", "docker0:172.17.0.1<0>"))
            .expect(warn("docker0 (container bridge)").at("a.log:1", "b.log:1")),
        given(
                "bootstrap on an IPv6 link-local address across two hosts",
                rank(0, "node-a", "eth0:fe80::42:acff:fe11:2%eth0<0>"),
                rank(1, "node-b", "eth0:fe80::42:acff:fe11:3%eth0<0>"))
            .expect(warn("eth0 (IPv6 link-local)").at("a.log:1", "b.log:1")),
        given(
                "a system error at init, four hosts bootstrapping over IPoIB ib0 (nccl issue 621's"
                    + " lines, PyTorch's error of nccl issue 286)",
                """
                dlv01:25797:25797 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.71<0>
                dlv01:25797:25797 [0] NCCL INFO NET/IB : Using [0]mlx4_0:1/IB ; OOB ib0:172.17.120.71<0>
                dlv04:8736:8736 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.74<0>
                dlv03:14376:14376 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.73<0>
                dlv02:27184:27184 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.72<0>
                RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410, unhandled system error, NCCL version 2.4.8
                """)
            .expect(
                warn(
                        "NCCL failed at init with a system error, and its socket interface is IPoIB: ib0",
                        "likely rather than proven",
                        "NCCL_SOCKET_IFNAME=eth0")
                    .at("a.log:6", "a.log:1", "a.log:3")),
        given(
                "two hosts list a veth beside eno1 and the log ends before any communicator line"
                    + " (oneflow issue 3586's line; the second host renamed)",
                """
                worker:101542:101542 [0] NCCL INFO Bootstrap : Using [0]eno1:172.18.40.41<0> [1]veth25f2e72:fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>
                """,
                """
                worker2:101542:101542 [0] NCCL INFO Bootstrap : Using [0]eno1:172.18.40.42<0> [1]veth25f2e72:fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>
                """)
            .expect(warn("veth25f2e72 (container bridge)").at("a.log:1", "b.log:1")),
        given(
            "the same list on one host only: nothing shows the job spans nodes",
            """
            worker:101542:101542 [0] NCCL INFO Bootstrap : Using [0]eno1:172.18.40.41<0> [1]veth25f2e72:fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>
            """),
        given(
                "NCCL's own trace of its bootstrap failing with a system error (nccl issue 975's"
                    + " bootstrap.cc:270 -> 2) where two hosts bootstrap over IPoIB ib0 (nccl issue"
                    + " 621's lines): no framework error needed",
                """
                dlv01:25797:25797 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.71<0>
                dlv04:8736:8736 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.74<0>
                n122-246-085:12246:12397 [0] NCCL INFO bootstrap.cc:270 -> 2
                """)
            .expect(
                warn(
                        "NCCL failed at init with a system error, and its socket interface is IPoIB: ib0",
                        "This job spans nodes (dlv01: ib0 172.17.120.71, dlv04: ib0 172.17.120.74).",
                        "NCCL_SOCKET_IFNAME=eth0")
                    .at("a.log:3", "a.log:1", "a.log:2")),
        given(
                "the trace with hosts on different /24 subnets: IPoIB addresses of nccl issue 952"
                    + " (ibp12s0) and nccl issue 834 (OOB ib0)",
                """
                cluster:925:925 [6] NCCL INFO Bootstrap : Using ibp12s0:10.149.0.32<0>
                SH-IDC1-10-142-5-42:40549:40549 [5] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.142.205.42<0>
                n122-246-085:12246:12397 [0] NCCL INFO bootstrap.cc:270 -> 2
                """)
            .expect(
                warn(
                        "NCCL failed at init with a system error, and its socket interface is IPoIB: ibp12s0",
                        "each host is on its own subnet")
                    .at("a.log:3", "a.log:2", "a.log:1")),
        given(
            "the bootstrap trace where NCCL bootstraps over Ethernet (nccl issue 743's eth0): not the"
                + " IPoIB finding",
            """
            task272154-tz9m4:511:511 [0] NCCL INFO Bootstrap : Using eth0:10.10.6.118<0>
            n122-246-085:12246:12397 [0] NCCL INFO bootstrap.cc:270 -> 2
            """),
        given(
            "a trace of another result (1, a CUDA error; nccl issue 844's bootstrap.cc:231 -> 1) or"
                + " another file is no bootstrap system error",
            """
            dlv01:25797:25797 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.71<0>
            dlv04:8736:8736 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.74<0>
            696b7901f9044f23b786795c0ef7257b000000:39:298 [0] NCCL INFO bootstrap.cc:231 -> 1
            696b7901f9044f23b786795c0ef7257b000000:39:298 [0] NCCL INFO include/socket.h:445 -> 2
            """),
        given(
            "the same system error where NCCL bootstraps over Ethernet: not the IPoIB finding",
            """
            dlv01:25797:25797 [0] NCCL INFO Bootstrap : Using eno1:10.0.120.71<0>
            dlv01:25797:25797 [0] NCCL INFO NET/IB : Using [0]mlx4_0:1/IB ; OOB ib0:172.17.120.71<0>
            RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410, unhandled system error, NCCL version 2.4.8
            """),
        given(
            "IPoIB bootstrap without an error: a healthy job (nccl issue 621's lines)",
            """
            dlv01:25797:25797 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.71<0>
            dlv04:8736:8736 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.74<0>
            """),
        given(
            "IPoIB bootstrap and a system error on a job shown on one node (nNodes 1)",
            """
            dlv01:25797:25797 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.71<0>
            dlv01:25797:25800 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0
            RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410, unhandled system error, NCCL version 2.4.8
            """),
        given(
            "IPoIB bootstrap, ranks connected, then a system error: not an init failure",
            """
            dlv01:25797:25797 [0] NCCL INFO Bootstrap : Using ib0:172.17.120.71<0>
            dlv01:25797:25800 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0
            dlv01:25797:25800 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0
            RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410, unhandled system error, NCCL version 2.4.8
            """),
        given(
                "NCCL_SOCKET_IFNAME matches no interface",
                """
                d9beab19e6d2:1791:1791 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth2
                d9beab19e6d2:1791:1791 [0] misc/socket.cc:237 NCCL WARN Net : No interface found in the same subnet as remote address a.b.c.d0<1778>
                d9beab19e6d2:1791:1791 [0] bootstrap.cc:39 NCCL WARN NET/Socket : No usable listening interface found
                """)
            .expect(
                error(
                        "NCCL found no usable socket interface",
                        "NCCL_SOCKET_IFNAME=eth2 matches none of the container's interfaces.")
                    .at("a.log:2", "a.log:3")),
        given(
                "the same-subnet line pasted alone, no header (nccl issue 929's line)",
                """
                Net : No interface found in the same subnet as remote address a.b.c.d0<1778>
                """)
            .expect(
                error(
                        "NCCL found no usable socket interface",
                        "NCCL_COMM_ID's, when set",
                        "Unset NCCL_COMM_ID")
                    .at("a.log:1")),
        given(
            "another program's subnet message is not NCCL's",
            """
            ssdp: no interface found in subnet 10.0.0.0/24, multicast disabled
            """),
        given(
                "XLA's text with NCCL's last warning, wrapped by the reporter (marin issue 6940's class,"
                    + " set 11 q08's lines)",
                """
                Failed to create NCCL communicator: INTERNAL: ncclCommInitRankConfig(...) failed:
                invalid usage ... Last NCCL warning(error): 'Bootstrap : no socket interface found'
                """)
            .expect(error("NCCL found no usable socket interface").at("a.log:2")),
        given(
                "no interface at all, nothing set",
                """
                node-a:1:1 [0] bootstrap.cc:39 NCCL WARN Bootstrap : no socket interface found
                """)
            .expect(
                error("NCCL could not find a network interface for bootstrap.")
                    .lacks("NCCL_SOCKET_IFNAME=")
                    .at("a.log:1")),
        given(
                "NCCL_SOCKET_IFNAME names no interface: the empty address surfaces later (NCCL 2.27)",
                Logs.excerpt("socket-ifname-missing-af-inet-nccl-1837.log"))
            .expect(
                error(
                        "address family is neither IPv4 nor IPv6",
                        "(NCCL_SOCKET_IFNAME=eth2 here)",
                        "different NCCL versions")
                    .at("a.log:5")),
        given(
                "one host's log: NET/Socket/1 is the veth NCCL listed second, the peer's log missing",
                Logs.excerpt("socket-connect-timeout-veth-oneflow-3586.log"))
            .expect(
                warn(
                        "vethe25f2e72 (container bridge)".replace("e25", "25"),
                        "via NET/Socket/1\" runs over the second one")
                    .at("a.log:1", "a.log:4", "a.log:9", "a.log:10")),
        given(
            "bootstrap on lo on a single host",
            rankOfTwo(0, "vm", 1, "P2P/CUMEM/read")
                .replace("eth0:" + address("vm"), "lo:127.0.0.1"),
            rankOfTwo(1, "vm", 1, "P2P/CUMEM/read")
                .replace("eth0:" + address("vm"), "lo:127.0.0.1")),
        given(
            "eth0 across two hosts",
            rank(0, "node-a", "eth0:10.0.0.1<0>"),
            rank(1, "node-b", "eth0:10.0.0.2<0>")),
        given(
            "a connection reset is not an interface problem",
            """
            2025-11-24T03:20:21.001125857Z [2025-11-24 11:20:21] gpu-server320 [5] misc/socket.cc:46 NCCL WARN socketProgressOpt: Call to send to 10.44.137.149<52905> failed : Connection reset by peer
            """),
        given(
                "an NCCL_COMM_ID NCCL cannot parse (bootstrap.cc, 2.28.3; nccl/messages)",
                """
                node-a:4021:4090 [0] bootstrap.cc:455 NCCL WARN Invalid NCCL_COMM_ID, please use format: <ipv4>:<port> or [<ipv6>]:<port> or <hostname>:<port>
                """)
            .expect(error("could not parse or resolve the address", "getent hosts").at("a.log:1")),
        given(
                "NCCL_OOB_NET_IFNAME naming no interface (bootstrap.cc:513, 2.28.3; nccl/messages)",
                """
                node-a:4021:4090 [0] bootstrap.cc:513 NCCL WARN no device found matching eth9, verify NCCL_OOB_NET_IFNAME
                """)
            .expect(error("found no usable socket interface").at("a.log:1")),
        given(
            "NCCL_COMM_ID given by the environment, as INFO",
            """
            node-a:4021:4090 [0] NCCL INFO NCCL_COMM_ID set by environment to 10.0.0.1:29500
            """),
        given(
                "bootstrap on lo while NCCL_COMM_ID names the root's eth0 address: the inverted"
                    + " subnet test, as its fix describes it (https://github.com/NVIDIA/nccl/pull/2047)",
                """
                NCCL_COMM_ID=172.17.16.2:12340
                NCCL INFO Bootstrap: Using lo:127.0.0.1<0>
                """)
            .expect(
                error(
                        "Bootstrap on loopback while NCCL_COMM_ID names 172.17.16.2",
                        "subnet of that address",
                        "fixed in 2.30.3",
                        "NCCL_SOCKET_IFNAME")
                    .at("a.log:1", "a.log:2")),
        given(
                "the same with NCCL's INFO of the setting and an export, 2.2x's format"
                    + " (bootstrap.cc's Bootstrap : Using, nccl/messages)",
                """
                export NCCL_SOCKET_IFNAME=lo
                node-a:4021:4021 [0] NCCL INFO NCCL_COMM_ID set by environment to 10.0.0.1:29500
                node-a:4021:4021 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to lo
                node-a:4021:4021 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>
                """)
            .expect(
                error("names 10.0.0.1", "NCCL_SOCKET_IFNAME=lo is set")
                    .lacks("2.30.3")
                    .at("a.log:2", "a.log:4")),
        given(
            "a root on loopback with bootstrap on lo: one host, nothing wrong",
            """
            NCCL_COMM_ID=127.0.0.1:12340
            NCCL INFO Bootstrap: Using lo:127.0.0.1<0>
            """),
        given(
            "NCCL_COMM_ID beside bootstrap on eth0: NCCL picked the root's subnet",
            """
            export NCCL_COMM_ID=172.17.16.2:12340
            NCCL INFO Bootstrap: Using eth0:172.17.16.3<0>
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new SocketInterface(), "socket-interface", c);
  }

  /** Every rank's log is here and all share one hostname: the job does not span hosts. */
  static Stream<Case> oneHostCases() {
    return Stream.of(
        given(
            "lo on one host where NCCL counted two nodes because P2P and SHM are disabled",
            """
            vm:1961:1961 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>
            vm:1961:1961 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1
            vm:1961:1961 [0] NCCL INFO NCCL_SHM_DISABLE set by environment to 1.
            vm:1961:1980 [0] NCCL INFO ncclCommInitRankConfig comm 0x10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 60 commId 0xabc - Init START
            vm:1961:1981 [1] NCCL INFO ncclCommInitRankConfig comm 0x11 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 70 commId 0xabc - Init START
            vm:1961:1980 [0] NCCL INFO comm 0x10 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0
            vm:1961:1981 [1] NCCL INFO comm 0x11 rank 1 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0
            vm:1961:1996 [0] NCCL INFO Channel 00/0 : 1[1] -> 0[0] [receive] via NET/Socket/0
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("oneHostCases")
  void loOnOneHostIsFine(Case c) {
    Logs.check(new SocketInterface(), "socket-interface", c);
  }
}
