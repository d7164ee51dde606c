package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** NCCL's init check that every rank of a communicator has a GPU of its own. */
class DuplicateGpuRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "mpirun prefix, two ranks (https://github.com/horovod/horovod/issues/3929)",
                """
                [1,2]<stdout>:smc-gpu-03:29880:30398 [0] init.cc:497 NCCL WARN Duplicate GPU detected : rank 2 and rank 0 both on CUDA device 1000
                [1,2]<stdout>:smc-gpu-03:29880:30398 [0] NCCL INFO init.cc:867 -> 5
                [1,4]<stdout>:
                [1,4]<stdout>:smc-gpu-03:29882:30400 [0] init.cc:497 NCCL WARN Duplicate GPU detected : rank 4 and rank 0 both on CUDA device 1000
                [1,4]<stdout>:smc-gpu-03:29882:30400 [0] NCCL INFO init.cc:867 -> 5
                """)
            .expect(
                error(
                        "Two ranks on one GPU",
                        "2 line(s) of 1 distinct form(s), from up to 2 process(es).",
                        "set_device")
                    .at("a.log:1")),
        given(
                "only PyTorch's exception, NCCL's text after Last error:"
                    + " (https://github.com/NVIDIA/Megatron-LM/issues/661)",
                """
                .DistBackendError: NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1727, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3
                ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
                Last error:
                Duplicate GPU detected : rank 3 and rank 0 both on CUDA device f000
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:4")),
        given(
                "NCCL's line pasted alone, no header, no Last error: above it"
                    + " (https://github.com/Intellindust-AI-Lab/DEIM/issues/113)",
                """
                Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1000
                """)
            .expect(error("Two ranks on one GPU", "1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "the same after the reporter's prose (https://github.com/rulixiang/afa/issues/26)",
                """
                this problem:
                Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 4f000
                how to solves？
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:2")),
        given(
            "a title that only names the GPU twice is not NCCL's check"
                + " (https://github.com/facebookresearch/msn/issues/24)",
            """
            # Duplicate GPU error
            nvidia-smi shows 4 different GPUs, and the issue persists after reboot.
            """),
        given(
            "two processes claiming one rank is duplicate-rank's (NCCL's bootstrap.cc format)",
            excerpt("duplicate-rank-source-format.log")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new DuplicateGpu(), "duplicate-gpu", c);
  }
}
