package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** CUDACHECK's text when the build has no kernel for the GPU's architecture, from any file. */
class CudaArchUnsupportedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "enqueue.cc's cudaFuncGetAttributes, twice (https://github.com/NVIDIA/nccl-tests/issues/208)",
                """
                noodle-4090-0:1896106:1896121 [1] enqueue.cc:47 NCCL WARN Cuda failure 'named symbol not found'

                noodle-4090-0:1896106:1896121 [1] enqueue.cc:58 NCCL WARN Cuda failure 'named symbol not found'
                """)
            .expect(
                error("The NCCL build has no kernels for this GPU's architecture", "NVCC_GENCODE")
                    .at("a.log:1")),
        given(
                "the same with the build's version line: CUDA 11.8, before Blackwell's 12.8"
                    + " (https://github.com/NVIDIA/nccl-tests/issues/208)",
                """
                noodle-4090-0:1896106:1896106 [1] NCCL INFO cudaDriverVersion 12020
                NCCL version 2.21.5+cuda11.8
                noodle-4090-0:1896106:1896121 [1] enqueue.cc:47 NCCL WARN Cuda failure 'named symbol not found'
                """)
            .expect(
                error(
                        "This NCCL 2.21.5 was built with CUDA 11.8: CUDA before 12.8 cannot compile for"
                            + " Blackwell GPUs",
                        "use a build for CUDA 12.8 or later")
                    .at("a.log:3", "a.log:2")),
        given(
                "a CUDA 11.1 build: before Hopper's 11.8 too (https://github.com/NVIDIA/nccl/issues/1068's"
                    + " 2.10.3 line for CUDA 11.1; https://github.com/NVIDIA/nccl-tests/issues/208's WARN)",
                """
                NCCL version 2.10.3+cuda11.1
                noodle-4090-0:1896106:1896121 [1] enqueue.cc:47 NCCL WARN Cuda failure 'named symbol not found'
                """)
            .expect(error("and before 11.8 not for Hopper or Ada").at("a.log:2", "a.log:1")),
        given(
                "a CUDA 13.0 build (the H200 fixture's version line) says nothing of the build",
                """
                NCCL version 2.28.9+cuda13.0
                noodle-4090-0:1896106:1896121 [1] enqueue.cc:47 NCCL WARN Cuda failure 'named symbol not found'
                """)
            .expect(error("The NCCL build has no kernels").at("a.log:2")),
        given(
                "CUDA 209 in CUDACHECK's form (cudaErrorNoKernelImageForDevice)",
                """
                host:1:2 [0] init.cc:1010 NCCL WARN Cuda failure 'no kernel image is available for execution on the device'
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "2.25's INFO line on an sm_120 GPU, kernels asking for more shared memory (enqueue.cc)",
                """
                host:4766:4780 [0] NCCL INFO NCCL version 2.25.1+cuda12.8
                host:4766:4780 [0] NCCL INFO ncclMaxSharedMem 82240 exceeds device/fn maxSharedMem 79856
                """)
            .expect(error("This NCCL is older than the GPU", "sm_120", "2.26.2").at("a.log:2")),
        given(
                "the WARN form with the architecture (2.19 to 2.24)",
                """
                host:1:2 [0] enqueue.cc:120 NCCL WARN cudaArch 1200 ncclMaxSharedMem 82240 exceeds device/fn maxSharedMem 79856
                """)
            .expect(error("This NCCL is older than the GPU").at("a.log:1")),
        given(
            "another INFO line about shared memory is no failure",
            """
            host:1:2 [0] NCCL INFO ncclMaxSharedMem 82240 fits device/fn maxSharedMem 99000
            """),
        given(
            "another CUDA failure is not the architecture (nccl issue 846)",
            """
            transport.cc:154 NCCL WARN Cuda failure 'invalid argument'
            """),
        given(
            "the driver's age is cuda-driver-too-old's (cuml issue 5961)",
            """
            VM-192-150-centos:2871:2871 [32523] misc/cudawrap.cc:182 NCCL WARN Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new CudaArchUnsupported(), "cuda-arch-unsupported", c);
  }
}
