package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * net_ib.cc's "Unable to open device" and ibvwrap.cc's failed ibv_open_device, apart from the
 * fabric.
 */
class IbDeviceUnavailableRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "the NIC's sysfs entry missing where the rank runs (NCCL 2.28.3"
                    + " transport/net_ib.cc:485's format, nccl/messages)",
                """
                node-a:4021:4090 [0] transport/net_ib.cc:485 NCCL WARN Could not find real path of /sys/class/infiniband/mlx5_0/device (No such file or directory)
                """)
            .expect(
                warn("/sys/class/infiniband", "NCCL_IB_HCA naming a device this host lacks")
                    .at("a.log:1")),
        given(
            "a GPU's PCI path NCCL cannot resolve is topology detection's, not a NIC's"
                + " (https://github.com/NVIDIA/nccl/issues/573)",
            """
            SHJS-PF4ZKYLL:92777:92889 [0] graph/xml.cc:332 NCCL WARN Could not find real path of /sys/class/pci_bus/0000:01/../../0000:01:00.0
            """),
        given(
                "a pod that lists devices it cannot open, NCCL 2.18 (https://github.com/zai-org/ImageReward/issues/65)",
                """
                65826-86bd789679-2dxbs:80744:80744 [1] misc/ibvwrap.cc:212 NCCL WARN Call to ibv_open_device failed

                65826-86bd789679-2dxbs:80746:80746 [3] transport/net_ib.cc:149 NCCL WARN NET/IB : Unable to open device mlx5_59
                65826-86bd789679-2dxbs:80746:80746 [3] NCCL INFO NET/IB : Using [0]mlx5_1:1/RoCE [1]mlx5_18:1/RoCE ; OOB eth0:33.117.221.247<0>
                """)
            .expect(
                warn("An InfiniBand/RoCE device is listed but cannot be opened", "NCCL_IB_HCA")
                    .at("a.log:1", "a.log:3")),
        given(
                "the line quoted alone in prose (https://github.com/NVIDIA/nccl/issues/2428)",
                """
                NCCL WARN NET/IB : Unable to open device erdma_1
                """)
            .expect(warn("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "nccl-tests in a Singularity container without libmlx5: libibverbs' own warning"
                    + " (https://github.com/NVIDIA/nccl-tests/issues/41)",
                """
                Singularity> ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 4
                #   Rank  0 Pid 108039 on ip-0AB85F07 device  0 [0x00] Tesla V100-PCIE-16GB
                libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0
                ip-0AB85F07: Test NCCL failure common.cu:775 'internal error'
                """)
            .expect(
                warn(
                        "An InfiniBand/RoCE device is listed but cannot be opened",
                        "no user-space provider library",
                        "ibverbs-providers")
                    .at("a.log:3")),
        given(
            "NCCL without libibverbs at all chose sockets: no device listed, nothing to open"
                + " (https://github.com/NVIDIA/nccl/issues/1812)",
            """
            paraai-n32-h-01-agent-18:749452:749484 [3] NCCL INFO Failed to open libibverbs.so[.1]
            paraai-n32-h-01-agent-18:749452:749484 [3] NCCL INFO NET/Socket : Using [0]eth0:172.16.4.235<0> [1]enp194s0f0:29.27.161.247<0>
            """),
        given(
            "a completion error is the fabric's (nccl issue 1405)",
            """
            kp-ddp-worker-0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid fd00:1148:9000:5000:4:200:3:ff22 remoteGidsfd00:1148:9000:5000:4:200:3:ff1f
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new IbDeviceUnavailable(), "ib-device-unavailable", c);
  }
}
