package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** CUDA's kernel faults (700 and kin) reported at an NCCL call or by nccl-tests. */
class CudaFaultRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "enqueue.cc, CUDA 700 with its number"
                    + " (https://github.com/Lightning-AI/pytorch-lightning/issues/20757)",
                """
                enqueue.cc:1556 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'
                """)
            .expect(
                error("A GPU kernel faulted (illegal memory access)", "CUDA_LAUNCH_BLOCKING=1")
                    .at("a.log:1")),
        given(
                "init.cc before the number was printed, beside a reset connection"
                    + " (https://github.com/NVIDIA/nccl/issues/629)",
                """
                A03-R28-I49-3-9000018:46841:46987 [0] include/socket.h:428 NCCL WARN Net : Call to recv from 11.127.49.2<36048> failed : Connection reset by peer
                A03-R28-I49-2-6000166:104934:104934 [1] init.cc:204 NCCL WARN Cuda failure 'an illegal memory access was encountered'
                A03-R28-I49-2-6000166: Test NCCL failure common.cu:497 'unhandled cuda error'
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:2")),
        given(
                "strongstream.cc in TensorRT-LLM (https://github.com/NVIDIA/TensorRT-LLM/issues/448)",
                """
                misc/strongstream.cc:343 NCCL WARN Cuda failure 'an illegal memory access was encountered'
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "PyTorch's watchdog died of it (https://github.com/vllm-project/vllm/issues/4108)",
                """
                [E ProcessGroupNCCL.cpp:916] [Rank 0] NCCL watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered
                CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "PyTorch's own CUDA check, then its watchdog, on an uncorrectable ECC error"
                    + " (https://github.com/kohya-ss/sd-scripts/issues/1434)",
                """
                RuntimeError: CUDA error: uncorrectable ECC error encountered
                CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
                [E ProcessGroupNCCL.cpp:916] [Rank 1] NCCL watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered
                """)
            .expect(
                error(
                        "The GPU reported an uncorrectable hardware error (ECC memory or NVLink)",
                        "nvidia-smi -q -d ECC")
                    .lacks("CUDA_LAUNCH_BLOCKING=1 (and compute-sanitizer")
                    .at("a.log:1", "a.log:3")),
        given(
                "the NVLink form as a JSON error file holds it (cudaErrorNvlinkUncorrectable, 220)",
                """
                "message": "RuntimeError: CUDA error: uncorrectable NVLink error detected during the execution\\nCUDA kernel errors might be asynchronously reported at some other API call",
                """)
            .expect(
                error(
                        "The GPU reported an uncorrectable hardware error (ECC memory or NVLink)",
                        "nvidia-smi nvlink -e")
                    .at("a.log:1")),
        given(
                "a kernel's own assertion (cudaErrorAssert, 710) as PyTorch raises it",
                """
                RuntimeError: CUDA error: device-side assert triggered
                """)
            .expect(
                error("A GPU kernel's own assertion failed (device-side assert)", "labels")
                    .at("a.log:1")),
        given(
            "a CUDA error of no kernel-fault kind: operation not permitted when stream is capturing",
            """
            RuntimeError: CUDA error: operation not permitted when stream is capturing
            """),
        given(
            "a driver older than CUDA is cuda-driver-too-old's (cuml issue 5961)",
            """
            VM-192-150-centos:2871:2871 [32523] misc/cudawrap.cc:182 NCCL WARN Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new CudaFault(), "cuda-illegal-address", c);
  }
}
