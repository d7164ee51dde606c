package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** ibvwrap.cc's failed DMA-BUF registration, apart from verbs ENOMEM and the fabric. */
class DmabufUnsupportedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "NCCL 2.13 on an old IB driver (https://github.com/NVIDIA/nccl/issues/778)",
                """
                misc/ibvwrap.cc:288 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Operation not supported
                """)
            .expect(
                error("GPU memory registration through DMA-BUF refused", "NCCL_DMABUF_ENABLE=0")
                    .at("a.log:1")),
        given(
            "ENOMEM from ibv_reg_mr is ib-memlock's (https://github.com/NVIDIA/nccl-tests/issues/206)",
            """
            misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory
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
    Logs.check(new DmabufUnsupported(), "dmabuf-unsupported", c);
  }
}
