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
                "Accelerate's refusal under deepspeed's launcher, with torchrun's rank prefix"
                    + " (https://github.com/OpenBMB/MiniCPM-V/issues/325)",
                """
                [rank1]:     raise NotImplementedError(
                [rank1]: NotImplementedError: Using RTX 4000 series doesn't support faster communication broadband via P2P or IB. Please set `NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1" or use `accelerate launch` which will do this automatically.
                """)
            .expect(
                error(
                        "Accelerate refused to start on RTX 4000-series GPUs: NCCL_P2P_DISABLE and"
                            + " NCCL_IB_DISABLE were not set",
                        "check_cuda_p2p_ib_support",
                        "https://github.com/huggingface/accelerate/pull/2195",
                        "NCCL_P2P_DISABLE=1 and NCCL_IB_DISABLE=1",
                        "accelerate launch")
                    .at("a.log:2")),
        given(
                "the refusal in a bare traceback, with the source line Accelerate raised it from"
                    + " (https://github.com/huggingface/peft/issues/1927)",
                """
                --> 292             raise NotImplementedError(
                    293                 "Using RTX 4000 series doesn't support faster communication broadband via P2P or IB. "
                    294                 'Please set `NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1" or use `accelerate launch` which '
                NotImplementedError: Using RTX 4000 series doesn't support faster communication broadband via P2P or IB. Please set `NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1" or use `accelerate launch` which will do this automatically.
                """)
            .expect(error("Accelerate refused to start").at("a.log:2", "a.log:4")),
        given(
            "a maintainer's words naming the series are no refusal"
                + " (https://github.com/huggingface/accelerate/issues/2328)",
            """
            Looks like I am incorrect, it's only on the 4000-series, will look into re-enabling this!
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
