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
