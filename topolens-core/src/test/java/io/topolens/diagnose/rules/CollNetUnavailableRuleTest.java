package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** CollNet (SHARP) that could not start, as the SHARP plugin and transport.cc say it. */
class CollNetUnavailableRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "the SHARP plugin cannot lock its streaming tree on two nodes"
                    + " (https://github.com/Mellanox/nccl-rdma-sharp-plugins/issues/151)",
                """
                C25L19:19373:19491 [3] sharp_plugin.c:302 NCCL WARN SHARP group create: Streaming Tree lock failed (-18)
                C25L18:24972:25066 [3] sharp_plugin.c:302 NCCL WARN SHARP group create: Streaming Tree lock failed (-18)
                """)
            .expect(
                warn("CollNet (SHARP) could not start", "sharp_am", "from up to 2 process(es)")
                    .at("a.log:1")),
        given(
            "NVLink SHARP is NVLS, not CollNet (https://github.com/NVIDIA/DCGM/issues/304)",
            """
            [2026-06-23 15:45:07] gpu-stress-dgc86-xfpt6:420:437 [5] transport/nvls.cc:379 (nvlsAllocateMem) NCCL WARN Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152 : CUDA error 401 'the operation cannot be performed in the present state'.
            """),
        given(
            "an IB completion error is ib-error's (https://github.com/NVIDIA/nccl-tests/issues/252)",
            """
            kolyoz2:25146:25854 [0] ib_plugin.c:1105 NCCL WARN NET/IB : Got completion from peer 10.0.35.1<49189> with error 4, opcode 5327, len 5327, vendor err 81 (Send)
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new CollNetUnavailable(), "collnet-unavailable", c);
  }
}
