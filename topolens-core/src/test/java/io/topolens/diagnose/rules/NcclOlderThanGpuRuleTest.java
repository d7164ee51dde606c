package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An NCCL release older than the first that supports the GPU generation the log names; a release
 * that supports it, or a GPU without a release, is no finding.
 */
class NcclOlderThanGpuRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "NCCL 2.14.3 under a PyTorch built for CUDA 11.8 on an RTX 5090 (sm_120), kernels"
                    + " missing (https://github.com/pytorch/pytorch/issues/152077)",
                """
                4d1a2ae696c8:50555:50555 [0] NCCL WARN Cuda failure 'named symbol not found'
                4d1a2ae696c8:50555:50555 [0] NCCL INFO Bootstrap : Using eth0:172.17.0.2<0>
                4d1a2ae696c8:50555:50555 [0] NCCL INFO cudaDriverVersion 12080
                NCCL version 2.14.3+cuda11.8
                NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.
                """)
            .expect(
                error(
                        "This NCCL is older than the GPU: compute capability 12.0 (consumer Blackwell:"
                            + " GeForce RTX 50xx, RTX PRO 6000) needs NCCL 2.26.2 or later",
                        "NCCL 2.14.3 and a GPU of that generation (GeForce RTX 5090 (sm_120))",
                        "The log shows a failure",
                        "common.mk")
                    .at("a.log:4", "a.log:5")),
        given(
                "NCCL 2.4.8 built for CUDA 10.2 on GPUs of compute capability 8, as its own INFO"
                    + " line says (https://github.com/NVIDIA/nccl/issues/792)",
                """
                node01:1297856:1297856 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>
                NCCL version 2.4.8+cuda10.2
                node01:1297856:1297856 [0] NCCL INFO nranks 8
                node01:1297856:1297856 [0] NCCL INFO Setting affinity for GPU 0 to 03ff,f0003fff
                node01:1297856:1297856 [7] NCCL INFO Using 256 threads, Min Comp Cap 8, Trees disabled
                """)
            .expect(
                warn(
                        "This NCCL is older than the GPU: compute capability 8.x (Ampere, Ada) needs"
                            + " NCCL 2.7.3 or later",
                        "(compute capability 8 (NCCL's Min Comp Cap))",
                        "Nothing failed in these lines",
                        "rel_2-7-3.html")
                    .at("a.log:2", "a.log:5")),
        given(
                "NCCL 2.25.1 on RTX 5090s: built for sm_120, yet its kernels ask for more shared"
                    + " memory than sm_120 gives (https://github.com/tinygrad/open-gpu-kernel-modules/issues/29;"
                    + " NVIDIA/nccl issue 1637: no chance to work with 2.25.1)",
                """
                #  Rank  7 Group  0 Pid 259034 on       test device  7 [0000:e1:00] NVIDIA GeForce RTX 5090
                test:259034:259034 [0] NCCL INFO Bootstrap: Using ens29f0:10.30.9.23<0>
                test:259034:259034 [0] NCCL INFO cudaDriverVersion 12080
                test:259034:259034 [0] NCCL INFO NCCL version 2.25.1+cuda12.8
                test:259034:259124 [0] NCCL INFO ncclMaxSharedMem 82240 exceeds device/fn maxSharedMem 79856
                """)
            .expect(
                error(
                        "compute capability 12.0 (consumer Blackwell: GeForce RTX 50xx, RTX PRO"
                            + " 6000) needs NCCL 2.26.2 or later",
                        "NCCL 2.25.1 and a GPU of that generation (GeForce RTX 5090)",
                        "The log shows a failure",
                        "issues/1637")
                    .at("a.log:4", "a.log:1")),
        given(
            "NCCL 2.25.1 on an RTX 5090 with the known bug's symptom: known-nccl-bug names the"
                + " upgrade to 2.26.2, not this rule a second time (KnownNcclBugRuleTest's lines:"
                + " PyTorch issue 147575's error)",
            KnownNcclBugRuleTest.RTX_5090 + KnownNcclBugRuleTest.PYTORCH_147575),
        given(
            "NCCL 2.26.2 supports the RTX 5090 (the lines of tinygrad/open-gpu-kernel-modules"
                + " issue 29 with the release nccl-tests issue 287's reporters confirmed working)",
            """
            #  Rank  7 Group  0 Pid 259034 on       test device  7 [0000:e1:00] NVIDIA GeForce RTX 5090
            test:259034:259034 [0] NCCL INFO NCCL version 2.26.2+cuda12.8
            """),
        given(
                "NCCL 2.14.3 (PyTorch 2.0's) on an H100, healthy: no sm_90 kernels, the driver"
                    + " JIT-compiles its 8.0 PTX (torch's environment report of"
                    + " https://github.com/pytorch/pytorch/issues/110153; the release filled in)",
                """
                GPU models and configuration: GPU 0: NVIDIA H100 PCIe
                NCCL version 2.14.3+cuda11.8
                """)
            .expect(
                warn(
                        "compute capability 9.0 (Hopper) needs NCCL 2.15 or later",
                        "Nothing failed in these lines",
                        "Include Hopper support if we're using CUDA11.8 or above")
                    .at("a.log:2", "a.log:1")),
        given(
            "NCCL 2.15.1, the first release with sm_90 kernels, on the same H100: no finding",
            """
            GPU models and configuration: GPU 0: NVIDIA H100 PCIe
            NCCL version 2.15.1+cuda11.8
            """),
        given(
            "NCCL 2.25.1, the first release with sm_100 kernels, on a B200: no finding"
                + " (nvidia-smi -L's form; the release of the 2.25.1 line above)",
            """
            GPU 0: NVIDIA B200 (UUID: GPU-00000000-0000-0000-0000-000000000000)
            NCCL version 2.25.1+cuda12.8
            """),
        given(
            "NCCL 2.7.8 supports the RTX 3090's generation (torch 1.7.1+cu110;"
                + " https://github.com/pytorch/pytorch/issues/62316)",
            """
            GeForce RTX 3090
            RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:784, unhandled cuda error, NCCL version 2.7.8
            """),
        given(
            "a GPU listed without any NCCL release (https://github.com/pytorch/pytorch/issues/170045)",
            """
            GPU models and configuration:\s
            GPU 0: NVIDIA H200
            GPU 1: NVIDIA H200
            """),
        given(
            "compute capability 7 (Volta) with NCCL 2.4.8: no entry predates it"
                + " (the Min Comp Cap line of NCCL 2.4's init.cc; values filled in)",
            """
            NCCL version 2.4.8+cuda10.1
            node01:1:1 [0] NCCL INFO Using 256 threads, Min Comp Cap 7, Trees enabled up to size 469999
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new NcclOlderThanGpu(), "nccl-older-than-gpu", c);
  }
}
