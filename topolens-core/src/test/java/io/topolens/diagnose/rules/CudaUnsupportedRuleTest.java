package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** CUDA 801 quoted by CUDACHECK outside NVLS. */
class CudaUnsupportedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "init.cc:416's cudaMemPoolCreate in CI, timestamped"
                    + " (https://github.com/meta-pytorch/torchtune/issues/2556)",
                """
                2025-04-04T16:57:57.7153695Z [2025-04-04 16:57:39] ip-10-0-9-191:95209:95228 [0] init.cc:416 NCCL WARN Cuda failure 'operation not supported'
                2025-04-04T16:57:57.7153889Z ip-10-0-9-191:95209:95228 [0] NCCL INFO init.cc:1397 -> 1
                """)
            .expect(
                error("CUDA does not support an operation NCCL needs on this GPU", "vGPU")
                    .at("a.log:1")),
        given(
                "init.cc:426 in an sglang server (https://github.com/sgl-project/sglang/issues/16015)",
                """
                [2025-12-28 13:06:52] ip-172-31-2-122:52560:52783 [0] init.cc:426 NCCL WARN Cuda failure 'operation not supported'
                """)
            .expect(error("cudaMemPoolCreate").at("a.log:1")),
        given(
            "NVLS's multicast refusal is nvls-error's",
            """
            host:1:2 [0] transport/nvls.cc:140 NCCL WARN Cuda failure 'operation not supported'
            """),
        given(
            "DMA-BUF's errno text is dmabuf-unsupported's",
            """
            host:1:2 [0] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Operation not supported
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new CudaUnsupported(), "cuda-unsupported", c);
  }
}
