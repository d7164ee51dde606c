package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** enqueue.cc's failure when no algorithm/protocol can run a collective. */
class AlgorithmUnavailableRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "the bare 2.18 line on one rank of four"
                    + " (https://github.com/NVIDIA/TensorRT-LLM/issues/953)",
                """
                dc:255756:255756 [3] NCCL INFO comm 0x55e4ee26b070 rank 3 nranks 4 cudaDev 3 nvmlDev 3 busId 61000 commId 0x7849b58874b511a0 - Init COMPLETE

                dc:255756:255756 [3] enqueue.cc:1182 NCCL WARN Error : no algorithm/protocol available
                dc:255756:255756 [3] NCCL INFO enqueue.cc:1283 -> 3
                """)
            .expect(
                error("No algorithm can run the operation", "NCCL_ALGO=allreduce:tree")
                    .at("a.log:3")),
        given(
                "PyTorch's last error with a launcher's rank prefix, 2.26"
                    + " (https://github.com/NVIDIA/nccl/issues/1709)",
                """
                238: [rank238]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3353, internal error - please report this issue to the NCCL developers, NCCL version 2.26.2
                238: [rank238]: ncclInternalError: Internal check failed.
                238: [rank238]: Last error:
                238: [rank238]: Error : no algorithm/protocol available for function AllGather with datatype ncclInt8.
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:4")),
        given(
            "NCCL_ALGO set and NCCL running is no failure (https://github.com/NVIDIA/nccl/issues/1219)",
            """
            node:1:1 [0] NCCL INFO NCCL_ALGO set by environment to nvls
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new AlgorithmUnavailable(), "algorithm-unavailable", c);
  }
}
