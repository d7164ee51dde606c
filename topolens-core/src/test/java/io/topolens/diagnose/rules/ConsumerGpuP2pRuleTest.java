package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A hang on GeForce GPUs without working P2P, P2P left on (sources in nccl/failures/README.md). */
class ConsumerGpuP2pRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
            "a title naming the bare number is not read: its needle would cost 9 % of the line"
                + " filter (https://github.com/deepspeedai/DeepSpeed/issues/4433)",
            """
            [BUG] Deadlock in distribution with multiple 4090
            """),
        given(
                "a title: a deadlock on RTX 4090s"
                    + " (https://github.com/NVIDIA/nccl-tests/issues/117, the model as its title"
                    + " writes it, DeepSpeed 4433's words)",
                """
                [BUG] Deadlock in distribution with multiple RTX 4090
                """)
            .expect(
                error(
                        "NVIDIA GeForce RTX 4090 GPUs have no working P2P: NCCL hangs on it",
                        "(\"RTX 4090\" in the log)",
                        "GeForce cards do not support peer-to-peer",
                        "https://github.com/NVIDIA/nccl-tests/issues/287",
                        "NCCL_P2P_DISABLE=1")
                    .at("a.log:1")),
        given(
                "nccl-tests hanging on RTX 4090s, the title and the device list"
                    + " (https://github.com/NVIDIA/nccl-tests/issues/117)",
                """
                NCCL all_reduce_perf test hangs with multiple RTX 4090 GPUs, works fine when I swap in 2080tis
                #   Rank  0 Pid   4479 on 4090-INSTALL device  0 [0x81] NVIDIA GeForce RTX 4090
                #   Rank  1 Pid   4479 on 4090-INSTALL device  1 [0xa1] NVIDIA GeForce RTX 4090
                """)
            .expect(
                error("(\"RTX 4090\" in the log)", "The job hung on NVIDIA GeForce RTX 4090 GPUs")
                    .at("a.log:1", "a.log:2", "a.log:3")),
        given(
            "the device list alone: no hang, nothing to say"
                + " (https://github.com/NVIDIA/nccl-tests/issues/117)",
            """
            #   Rank  0 Pid   4479 on 4090-INSTALL device  0 [0x81] NVIDIA GeForce RTX 4090
            #   Rank  1 Pid   4479 on 4090-INSTALL device  1 [0xa1] NVIDIA GeForce RTX 4090
            """),
        given(
            "P2P already off on the 4090s (https://github.com/OpenRLHF/OpenRLHF/issues/1064)",
            """
            GPUs: 4x RTX 4090 (without P2P support)
            """),
        given(
            "a GPU the catalog does not list without P2P"
                + " (https://github.com/NVIDIA/nccl/issues/1637)",
            """
            NCCL P2P issue using two RTX 5090 hangs
            """),
        given(
            "a process id that reads 4090 is no GPU",
            """
            node1:4090:4101 [0] NCCL INFO Channel 00/02 :    0   1
            Training hangs at step 3
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new ConsumerGpuP2p(), "consumer-gpu-p2p", c);
  }
}
