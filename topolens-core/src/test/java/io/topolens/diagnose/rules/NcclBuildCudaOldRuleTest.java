package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NcclBuildCudaOldRuleTest {

  /** PyTorch's error and NCCL's last error of lmdeploy PR 2433 (nvidia-nccl-cu11 with graphs). */
  static final String LMDEPLOY =
      """
      torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2395, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3
      ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
      Last error:
      NCCL cannot be captured in a graph if either it wasn't built with CUDA runtime >= 11.3 or if the installed CUDA driver < R465.
      """;

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "NCCL's refusal after PyTorch's Last error: (lmdeploy PR 2433), no version line",
                LMDEPLOY)
            .expect(
                error(
                        "NCCL cannot be captured in a CUDA graph: its build or the driver is too old",
                        "nvidia-nccl-cu11 wheels are built with CUDA 11.0",
                        "--enforce-eager")
                    .at("a.log:4")),
        given(
                "the same with NCCL's version line naming a CUDA 11.1 build (nccl issue 1068's line)",
                "NCCL version 2.10.3+cuda11.1\n" + LMDEPLOY)
            .expect(
                error(
                        "This NCCL build (CUDA 11.1) is too old for CUDA graph capture",
                        "This NCCL is 2.10.3 built with CUDA 11.1: the build is the cause")
                    .at("a.log:5", "a.log:1")),
        given(
                "a CUDA 12.3 build (TensorRT-LLM issue 1498's version line): the driver or another NCCL",
                "NCCL version 2.19.3+cuda12.3\n" + LMDEPLOY)
            .expect(error("is new enough").at("a.log:5")),
        given(
            "a CUDA 11.1 build that captured nothing: no finding (nccl issue 1068's lines)",
            """
            nvidia2020:27646:27646 [0] NCCL INFO Using network Socket
            NCCL version 2.10.3+cuda11.1
            """),
        given(
            "another usage error of graphs is invalid-argument's, not the build's (enqueue.cc 2.28.3,"
                + " nccl/messages)",
            """
            host:1:2 [0] enqueue.cc:2333 NCCL WARN Streams given to a communicator within a NCCL group must either be all uncaptured or all captured by the same graph.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new NcclBuildCudaOld(), "nccl-build-cuda-old", c);
  }
}
