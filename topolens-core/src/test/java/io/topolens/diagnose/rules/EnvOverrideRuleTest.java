package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.info;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class EnvOverrideRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        // close24: gIB's guest config checker, its format as Google's NCCL/gIB log page quotes it
        // (https://docs.cloud.google.com/ai-hypercomputer/docs/nccl/collect-and-understand), the
        // values a TCPXO checker enforced (https://github.com/NVIDIA/aicr/pull/422)
        given(
                "a plugin's config checker enforcing NCCL_PROTO: the workload ends",
                """
                node-a:4021:4090 [0] NCCL WARN NCCL/NET ( shim ) mismatch enforced: NCCL_PROTO = Simple,LL128 ( expected Simple )
                """)
            .expect(
                error(
                        "config checker enforced NCCL_PROTO=Simple (set to Simple,LL128)",
                        "not GPU peer-to-peer or the network",
                        "set_nccl_env.sh")
                    .at("a.log:1")),
        given(
                "a plugin's config checker recommending a value: a warning",
                """
                node-a:4021:4090 [0] NCCL WARN NCCL/NET (shim) mismatch recommended: NCCL_NVLS_ENABLE = 1 (expected 0)
                """)
            .expect(
                warn("config checker recommends NCCL_NVLS_ENABLE=0 (set to 1)", "possibly slower")
                    .at("a.log:1")),
        given(
                "NCCL_P2P_DISABLE=1 printed by two processes",
                """
                vm:1961:1961 [0] NCCL INFO NCCL version 2.28.9+cuda13.0
                vm:1961:1980 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1
                """,
                """
                vm:1962:1982 [1] NCCL INFO NCCL_P2P_DISABLE set by environment to 1
                """)
            .expect(
                warn(
                        "NCCL_P2P_DISABLE=1 is set by the environment",
                        "1 disables the P2P transport",
                        "Reported by 2 process(es).")
                    .lacks("NCCL's default")
                    .at("a.log:2")),
        given(
                "NCCL_P2P_DISABLE=0 restates the default",
                """
                vm:1:1 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 0
                """)
            .expect(
                info(
                        "NCCL_P2P_DISABLE=0 is set by the environment",
                        "This value is NCCL's default, so setting it changes nothing.")
                    .at("a.log:1")),
        given(
                "older NCCL ends the value with a dot",
                """
                vm:1961:1980 [0] NCCL INFO NCCL_SHM_DISABLE set by environment to 1.
                """)
            .expect(warn("NCCL_SHM_DISABLE=1 is set by the environment").at("a.log:1")),
        given(
                "two settings give two findings in log order",
                """
                algo-1:17778:17848 [5] NCCL INFO NCCL_IB_DISABLE set by environment to 1.
                algo-1:17778:17848 [5] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0
                """)
            .expect(
                warn("NCCL_IB_DISABLE=1 is set by the environment").at("a.log:1"),
                info("NCCL_SOCKET_IFNAME=eth0 is set by the environment").at("a.log:2")),
        given(
                "NCCL_IB_DISABLE=0 is the default",
                """
                node-a:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 0
                """)
            .expect(info("This value is NCCL's default").at("a.log:1")),
        given(
                "NCCL_ALGO forced",
                """
                node-a:1:1 [0] NCCL INFO NCCL_ALGO set by environment to Ring
                """)
            .expect(warn("NCCL_ALGO=Ring is set by the environment").at("a.log:1")),
        given(
                "an image's NCCL_GRAPH_FILE beside its NCCL_TOPO_FILE"
                    + " (https://github.com/Azure/azhpc-images/issues/327)",
                """
                ::16674:17023 [0] NCCL INFO NCCL_TOPO_FILE set by environment to /opt/microsoft/ncv4/topo.xml
                ::16674:17023 [0] NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/microsoft/ncv4/graph.xml
                """)
            .expect(
                info("NCCL_TOPO_FILE=/opt/microsoft/ncv4/topo.xml is set by the environment")
                    .at("a.log:1"),
                warn(
                        "NCCL_GRAPH_FILE=/opt/microsoft/ncv4/graph.xml is set by the environment",
                        "/etc/nccl.conf")
                    .at("a.log:2")),
        given(
            "settings topolens does not explain",
            """
            vm:1704:1723 [0] NCCL INFO NCCL_TOPO_DUMP_FILE set by environment to /tmp/r/topo.xml
            vm:1704:1723 [0] NCCL INFO NCCL_GRAPH_DUMP_FILE set by environment to /tmp/r/graph.xml
            """),
        given(
            "a NCCL_ line that does not say 'set by environment'",
            """
            node-a:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set to eth0
            """),
        given(
                "a value NCCL could not parse (misc/param.cc, 2.28.3 INFO; nccl/messages)",
                """
                node-a:4021:4090 [0] NCCL INFO Invalid value 20s for NCCL_IB_TIMEOUT, using default 20.
                """)
            .expect(warn("ignored a setting", "plain integer").at("a.log:1")),
        // NVIDIA/nccl 2.29 src/transport/net_ib/connect.cc (ncclIbFindDevBySubnet,
        // ncclIbSenderQpsCreate): a setting NCCL refuses and fails on, not the fabric
        given(
                "NCCL_IB_SUBNET_PREFIX_LEN out of range: an error naming the setting",
                """
                node-a:4021:4090 [0] transport/net_ib/connect.cc:412 NCCL WARN NET/IB: NCCL_IB_SUBNET_PREFIX_LEN=40 is out of range [1,32]
                node-b:4022:4091 [0] transport/net_ib/connect.cc:412 NCCL WARN NET/IB: NCCL_IB_SUBNET_PREFIX_LEN=40 is out of range [1,32]
                """)
            .expect(
                error(
                        "NCCL refused NCCL_IB_SUBNET_PREFIX_LEN=40, outside [1,32]",
                        "ncclInvalidArgument",
                        "not the fabric's",
                        "within [1,32]")
                    .at("a.log:1")),
        given(
                "NCCL_IB_OOO_RQ forced on a NIC without adaptive routing",
                """
                node-a:4021:4090 [0] transport/net_ib/connect.cc:630 NCCL WARN NET/IB: OOO RQ is force enabled but AR is not enabled, which is required for OOO RQ (device=mlx5_0)
                """)
            .expect(
                error(
                        "NCCL refused NCCL_IB_OOO_RQ (forced on) on mlx5_0",
                        "adaptive routing",
                        "Unset NCCL_IB_OOO_RQ")
                    .at("a.log:1")),
        given(
                "NCCL_NTHREADS not a multiple of 32 (graph/tuning.cc getNthreads, a WARN in 2.12-2.18)",
                """
                node-a:4021:4090 [0] graph/tuning.cc:112 NCCL WARN Invalid NCCL_NTHREADS 100 (must be a multiple of 32)
                """)
            .expect(warn("ignored a setting", "NCCL_NTHREADS not a multiple of 32").at("a.log:1")),
        given(
                "NCCL_COMM_BLOCKING neither 0 nor 1 (init.cc 2.14-2.29, NVIDIA/nccl src/init.cc)",
                """
                node-a:4021:4090 [0] init.cc:1789 NCCL WARN Invalid NCCL_COMM_BLOCKING value 2
                """)
            .expect(warn("ignored a setting").at("a.log:1")),
        given(
                "NCCL_LL128_NTHREADS below its minimum (graph/tuning.cc, INFO in later releases)",
                """
                node-a:4021:4090 [0] NCCL INFO Invalid NCCL_LL128_NTHREADS 32 (minimum 64).
                """)
            .expect(warn("ignored a setting").at("a.log:1")),
        given(
                "NCCL_COMM_ID beside several unique ids (init.cc, NCCL 2.28.3 INFO in"
                    + " ncclCommInitRankDev, the format of NVIDIA/nccl src/init.cc; nccl/messages)",
                """
                node-a:4021:4090 [0] NCCL INFO NCCL_COMM_ID set by environment to 10.0.0.1:29400
                node-a:4021:4090 [0] NCCL INFO NCCL_COMM_ID cannot be used with more than one ncclUniqueId
                """)
            .expect(
                warn(
                        "NCCL_COMM_ID overrode the program's unique ids: NCCL used one bootstrap root",
                        "ncclCommInitRankScalable",
                        "Unset NCCL_COMM_ID")
                    .lacks("plain integer")
                    .at("a.log:2")),
        given(
                "NCCL_CREATE_THREAD_CONTEXT=1 that NCCL could not apply (proxy.cc, NCCL 2.28.3"
                    + " :882 and :892's formats; nccl/messages)",
                """
                node-a:4021:4090 [0] NCCL INFO NCCL_CREATE_THREAD_CONTEXT set by environment to 1.
                node-a:4021:4090 [0] proxy.cc:882 NCCL WARN Unable to create thread context due to old driver, disabling.
                node-b:4022:4091 [1] proxy.cc:892 NCCL WARN Failed to create CUDA context on device 1
                """)
            .expect(
                warn("ignored a setting", "turned the setting off", "unset it")
                    .at("a.log:2", "a.log:3")),
        given(
            "NCCL_COMM_ID set alone is no override of the program's ids",
            """
            node-a:4021:4090 [0] NCCL INFO NCCL_COMM_ID set by environment to 10.0.0.1:29400
            """),
        given(
                "values above the socket transport's caps (NCCL 2.28.3 transport/net_socket.cc:294"
                    + " and :332 formats, nccl/messages; values filled in)",
                """
                node-a:4021:4090 [0] transport/net_socket.cc:294 NCCL WARN NET/Socket : NCCL_SOCKET_NTHREADS is greater than the maximum allowed, setting to 16
                node-a:4021:4090 [0] transport/net_socket.cc:332 NCCL WARN NET/Socket : the total number of sockets is greater than the maximum allowed, setting NCCL_NSOCKS_PERTHREAD to 4
                """)
            .expect(warn("ignored a setting", "at most 64").at("a.log:1", "a.log:2")),
        given(
                "NCCL_SHM_LOCALITY outside 1..2 (NCCL 2.28.3 transport/shm.cc:516, nccl/messages)",
                """
                node-a:4021:4090 [0] transport/shm.cc:516 NCCL WARN Ignoring SHM locality, must be 1 (sender side) or 2 (receiver side, default)
                """)
            .expect(warn("ignored a setting").at("a.log:1")),
        given(
            "the socket transport's own choice of threads is no override (NCCL 2.28.3 INFO)",
            """
            node-a:4021:4090 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new EnvOverride(), "env-override", c);
  }
}
