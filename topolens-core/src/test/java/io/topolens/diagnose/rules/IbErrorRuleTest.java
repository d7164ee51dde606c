package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class IbErrorRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        // issue 10: NCCL 2.29's refusals of a setting (net_ib/connect.cc) are env-override's
        given(
                "NCCL_IB_SUBNET_PREFIX_LEN out of range and NCCL_IB_OOO_RQ forced on: not the fabric",
                """
                node-a:4021:4090 [0] transport/net_ib/connect.cc:412 NCCL WARN NET/IB: NCCL_IB_SUBNET_PREFIX_LEN=40 is out of range [1,32]
                node-a:4021:4090 [0] transport/net_ib/connect.cc:630 NCCL WARN NET/IB: OOO RQ is force enabled but not supported on both sides of the connection (device=mlx5_0, localOooRq=1, remOooRq=0)
                """)
            .expect(),
        // close24: the typed reading (call and errno; completion status, peer, HCA)
        given(
                "status 4 before 2.19, one peer named (https://github.com/NVIDIA/nccl/issues/928)",
                """
                NET/IB : Got completion from peer fe80::1%ib0<53249> with error 4, opcode 32564, len 32564, vendor err 81 (Send)
                """)
            .expect(
                error(
                        "status 4 (IBV_WC_LOC_PROT_ERR, local protection)",
                        "against peer fe80::1%ib0",
                        "not the link",
                        "PCIe ACS")
                    .lacks("transport retry counter exceeded")
                    .at("a.log:1")),
        given(
                "status 4 from two hosts against the one peer (2.21.5's format with its HCA,"
                    + " https://github.com/NVIDIA/nccl/issues/1905)",
                """
                node-a:4021:4090 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB: Got completion from peer 10.0.0.12<53249> with status=4 opcode=0 len=0 vendor err 83 (Send) hca mlx5_ib0
                """,
                """
                node-b:4022:4091 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB: Got completion from peer 10.0.0.12<53250> with status=4 opcode=0 len=0 vendor err 83 (Send) hca mlx5_ib0
                """)
            .expect(
                error("Every failing line (2 processes) names the one peer 10.0.0.12", "mlx5_ib0")
                    .at("a.log:1")),
        given(
                "status 4 against two peers from one host: the shared DMA path (issue 1905's"
                    + " format)",
                """
                node-a:4021:4090 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB: Got completion from peer 10.0.0.12<53249> with status=4 opcode=0 len=0 vendor err 83 (Send) hca mlx5_ib0
                node-a:4021:4090 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB: Got completion from peer 10.0.0.13<53251> with status=4 opcode=0 len=0 vendor err 83 (Send) hca mlx5_ib0
                """)
            .expect(
                error("The lines name 2 peers (10.0.0.12, 10.0.0.13)", "the one local HCA mlx5_ib0")
                    .at("a.log:1", "a.log:2")),
        given(
                "ibv_reg_mr without errno, as NCCL's ibvwrap of 2015-2019 checks it (IBV_PTR_CHECK;"
                    + " https://github.com/Oneflow-Inc/oneflow/blob/master/oneflow/core/comm_network/ibverbs/ibverbs_wrapper.cpp"
                    + " keeps the copy)",
                """
                node-a:4021:4090 [0] misc/ibvwrap.cc:212 NCCL WARN Call to ibv_reg_mr failed
                """)
            .expect(
                error("no errno printed", "locked-memory limit (ENOMEM", "nvidia-peermem")
                    .at("a.log:1")),
        given(
                "ibv_reg_mr with EFAULT (2.28.3 misc/ibvwrap.cc:173's format)",
                """
                node-a:4021:4090 [0] misc/ibvwrap.cc:173 NCCL WARN Call to ibv_reg_mr failed with error Bad address
                """)
            .expect(error("GPU buffer not registrable", "modprobe nvidia-peermem").at("a.log:1")),
        given(
                "ibv_modify_qp timing out between GIDs of different /24 networks (2.28.3"
                    + " misc/ibvwrap.cc:302's format)",
                """
                node-a:4021:4090 [0] misc/ibvwrap.cc:302 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:192.168.100.1, remote GID ::ffff:192.168.101.3
                """)
            .expect(
                error(
                        "between GIDs ::ffff:192.168.100.1 and ::ffff:192.168.101.3, whose IPv4"
                            + " addresses differ in their first three octets (a /24 assumed; the"
                            + " log shows no mask)",
                        "(192.168.100 and 192.168.101): different networks where the mask is /24",
                        "a wider one (/16) puts both in one network",
                        "NCCL_NET_PLUGIN")
                    .at("a.log:1")),
        given(
                "ibv_modify_qp timing out within one /24: the generic timeout text (2.28.3"
                    + " misc/ibvwrap.cc:302)",
                """
                node-a:4021:4090 [0] misc/ibvwrap.cc:302 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:10.0.0.11, remote GID ::ffff:10.0.0.12
                """)
            .expect(
                error("cross-rail connected")
                    .lacks("differ in their first three octets")
                    .at("a.log:1")),
        given(
                "the kernel's port-down line alone (Linux's example in the patch that added it,"
                    + " https://lore.kernel.org/linux-rdma/2d26ccbd669bad99089fa2aebb5cba4014fc4999.1738586601.git.leon@kernel.org/)",
                """
                mlx5_core 0000:08:00.0 mlx5_0: Port: 1 Link DOWN
                """)
            .expect(
                warn("Port: N Link DOWN", "mlxlink -d DEVICE -p PORT")
                    .lacks("GID index")
                    .at("a.log:1")),
        given(
                "the port down (same patch) beside NCCL's completion error of the next row",
                """
                mlx5_core 0000:08:00.0 mlx5_0: Port: 1 Link DOWN
                node-a:3468:3905 [4] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2
                """)
            .expect(
                error("Port: N Link DOWN", "transport retry counter exceeded")
                    .at("a.log:1", "a.log:2")),
        given(
            "ports coming up at boot are healthy (https://github.com/leptonai/gpud/pull/1209)",
            """
            Feb 14 05:03:41 000-000-00000-1-gpu-1 kernel: mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link INIT
            Feb 14 05:03:41 000-000-00000-1-gpu-1 kernel: mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link ACTIVE
            """),
        given(
                "a QP connect timed out (NCCL 2.27 form, https://github.com/NVIDIA/nccl/issues/2013;"
                    + " the maintainer: the NICs cannot communicate, NCCL_CROSS_NIC=0 fixed it)",
                """
                [2026-03-13 22:26:02] host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx_x:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:xxx.xx.xx.xx, remote GID ::ffff:xxx.xx.xxx.xx
                """)
            .expect(
                error("ibv_modify_qp timing out", "cross-rail", "NCCL_CROSS_NIC=0").at("a.log:1")),
        given(
                "the same line quoted without its header and 'Call to', as prose quotes it: the"
                    + " reader takes it as NCCL's WARN text",
                """
                ibv_modify_qp failed with 110 Connection timed out, on dev mlx_x:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:xxx.xx.xx.xx, remote GID ::ffff:xxx.xx.xxx.xx
                """)
            .expect(error("ibv_modify_qp timing out", "NCCL_IB_HCA").at("a.log:1")),
        given(
                "the older form, NCCL 2.21.5 with HPC-X's plugin on irdma RoCE"
                    + " (https://github.com/NVIDIA/nccl-tests/issues/227, its title)",
                """
                Test fail caused by ibvwrap.c:160 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out.
                """)
            .expect(error("ibv_modify_qp timing out").at("a.log:1")),
        given(
                "another errno of the same call is not a timeout (NCCL 2.6.2,"
                    + " https://github.com/NVIDIA/nccl/issues/302)",
                """
                [56] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error Invalid argument
                """)
            .expect(
                error("ibv_modify_qp failed with EINVAL", "different link layers")
                    .lacks("ibv_modify_qp timing out")
                    .at("a.log:1")),
        given(
                "completion errors (status 12) on two nodes: one form per peer named",
                """
                node-a:3468:3905 [4] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA
                node-a:3468:3905 [4] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2
                node-a:3468:3905 [4] NCCL INFO transport/net.cc:1302 -> 6
                """,
                """
                node-b:3470:3906 [4] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.0.0.1<54863> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.2 remoteGids::ffff:10.0.0.1
                node-b:3470:3906 [4] NCCL INFO proxy.cc:878 -> 6 [Progress Thread]
                """)
            .expect(
                error(
                        "InfiniBand/RoCE errors",
                        "2 line(s) of 2 distinct form(s), from up to 1 process(es).",
                        "transport retry counter exceeded")
                    .at("a.log:2", "b.log:1")),
        given(
                "ibv_modify_qp fails, with rank prefix and error unwinding",
                """
                [56] crow-ib-new-nccl-262-b-7:7240:7401 [0] NCCL INFO Ring 00 : 51[3d000] -> 56[1a000] [receive] via NET/IB/2
                [56] crow-ib-new-nccl-262-b-7:7240:7401 [0] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error Invalid argument
                [56] crow-ib-new-nccl-262-b-7:7240:7401 [0] NCCL INFO transport/net_ib.cc:617 -> 2
                """)
            .expect(
                error("1 line(s) of 1 distinct form(s), from up to 1 process(es).").at("a.log:2")),
        given(
                "a collective mismatch beside a verbs error: only the verbs error is the fabric's",
                """
                train-0:15483:15645 [0] transport/net_ib.cc:665 NCCL WARN NET/IB : collective mismatch error local size 546816 remote 524288 addr 7ff7d1530000 rkey 2553d seq 14/1c
                train-0:15483:15645 [0] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error No such device
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:2")),
        given(
                "RoCE GID attributes NCCL cannot read, a title without NCCL's header"
                    + " (https://github.com/NVIDIA/nccl/issues/1573)",
                """
                nccl connection abort(between kubernetes pods): WARN NET/IB: read failed in ncclIbRoceGetVersionNum: Invalid argument
                """)
            .expect(error("gid_attrs/types", "macvlan").at("a.log:1")),
        given(
            "a device NCCL cannot open is ib-device-unavailable's (https://github.com/zai-org/ImageReward/issues/65)",
            """
            65826-86bd789679-2dxbs:80746:80746 [3] transport/net_ib.cc:149 NCCL WARN NET/IB : Unable to open device mlx5_59
            """),
        given(
            "libibverbs missing is not a verbs error",
            """
            aliyun:82174:82321 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]
            aliyun:82174:82321 [0] NCCL INFO NET/Socket : Using [0]eth0:172.16.0.1<0>
            """),
        given(
            "no IB device is an INFO line, not an error",
            """
            vm:1:1 [0] NCCL INFO NET/IB : No device found.
            vm:1:1 [0] NCCL INFO Using network Socket
            """),
        given(
            "a /dev/shm warning",
            """
            ubuntu:9621:9691 [6] misc/shmutils.cc:71 NCCL WARN Error: failed to extend /dev/shm/nccl-fjwOOB to 5967876 bytes
            """),
        given(
                "RoCE in pods, the GID left to NCCL beside NCCL_IB_ROCE_VERSION_NUM, the proxy's"
                    + " Connect failed (https://github.com/NVIDIA/nccl/issues/1538)",
                """
                #export NCCL_IB_GID_INDEX=7;
                export NCCL_IB_ROCE_VERSION_NUM=2;
                job-3bb8-worker-0:5665:5801 [2] proxy.cc:1521 NCCL WARN [Proxy Service 2] Failed to execute operation Connect from rank 2, retcode 3
                """)
            .expect(
                warn(
                        "RoCE GID left to NCCL's choice (NCCL_IB_ROCE_VERSION_NUM=2, no NCCL_IB_GID_INDEX)",
                        "gid_attrs",
                        "2.26")
                    .at("a.log:2", "a.log:3")),
        given(
            "the same with the GID index given: NCCL chose nothing",
            """
            export NCCL_IB_GID_INDEX=7;
            export NCCL_IB_ROCE_VERSION_NUM=2;
            job-3bb8-worker-0:5665:5801 [2] proxy.cc:1521 NCCL WARN [Proxy Service 2] Failed to execute operation Connect from rank 2, retcode 3
            """),
        given(
            "the same connect failure without a RoCE version set is proxy-error's alone",
            """
            job-3bb8-worker-0:5665:5801 [2] proxy.cc:1521 NCCL WARN [Proxy Service 2] Failed to execute operation Connect from rank 2, retcode 3
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new IbError(), "ib-error", c);
  }

  /** aws-ofi-nccl warnings are EFA/libfabric, not verbs, whatever function printed them. */
  static Stream<Case> efaCases() {
    return Stream.of(
        given(
            "aws-ofi-nccl warning printed from process_completions (aws-ofi-nccl issue 927)",
            """
            ip-10-1-2-3:80:2500 [0] process_completions:1648 NCCL WARN NET/OFI Write complete from unexpected request type!
            ip-10-1-2-3:80:2500 [0] NCCL INFO transport/net.cc:1302 -> 3
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("efaCases")
  void efaWarningIsNoIbError(Case c) {
    Logs.check(new IbError(), "ib-error", c);
  }
}
