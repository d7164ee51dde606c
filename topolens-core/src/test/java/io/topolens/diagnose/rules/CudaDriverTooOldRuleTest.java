package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** CUDACHECK's text when the driver is older than the CUDA runtime, from any source file. */
class CudaDriverTooOldRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "misc/cudawrap.cc with the full header (https://github.com/NVIDIA/cuml/issues/5961)",
                """
                VM-192-150-centos:2871:2871 [32523] misc/cudawrap.cc:182 NCCL WARN Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'
                """)
            .expect(
                error("The NVIDIA driver is too old for this CUDA", "nvidia-smi").at("a.log:1")),
        given(
                "init.cc without host or device (https://github.com/InternLM/lmdeploy/issues/1108)",
                """
                NCCL INFO cudaDriverVersion 11070

                init.cc:1582 NCCL WARN Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:3")),
        given(
                "nccl-tests' CUDA check before 2.x, beside an old WARN line"
                    + " (https://github.com/NVIDIA/nccl-tests/issues/12)",
                """
                misc/ibvwrap.cu:60 WARN Failed to open libibverbs.so[.1]
                Cuda failure common.cu:891 'CUDA driver version is insufficient for CUDA runtime version'
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:2")),
        given(
            "another CUDA failure is not the driver's age (nccl issue 846)",
            """
            transport.cc:154 NCCL WARN Cuda failure 'invalid argument'
            """),
        given(
            "out of memory is cuda-out-of-memory's (nccl issue 1235)",
            """
            ng30903:3063028:3066152 [3] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new CudaDriverTooOld(), "cuda-driver-too-old", c);
  }
}
