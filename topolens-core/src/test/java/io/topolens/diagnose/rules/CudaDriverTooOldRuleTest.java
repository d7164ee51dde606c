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
                "PyTorch's CUDA error alone, no NCCL word (https://github.com/nagadomi/nunif/issues/702)",
                """
                RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version
                """)
            .expect(
                error("The NVIDIA driver is too old for this CUDA", "nvidia-smi").at("a.log:1")),
        given(
                "PyTorch 1.x's cuda runtime error (35)"
                    + " (https://github.com/BobLiu20/YOLOv3_PyTorch/issues/12)",
                """
                > RuntimeError: cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at /opt/conda/conda-bld/pytorch_1524586445097/work/aten/src/THC/THCGeneral.cpp:70
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "the runtime's error name first (https://github.com/koide3/glim/issues/31)",
                """
                warning: cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "PyTorch's own driver check (https://github.com/serend1p1ty/SeqNet/issues/36)",
                """
                RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.
                """)
            .expect(error("The NVIDIA driver is too old for this CUDA").at("a.log:1")),
        given(
                "the same as PyTorch's warning at CUDA initialisation"
                    + " (https://github.com/IEIT-Yuan/Yuan-2.0/issues/65)",
                """
                /usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py:124: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11000). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver. (Triggered internally at /opt/pytorch/pytorch/c10/cuda/CUDAFunctions.cpp:108.)
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
            "NCCL printing the driver's CUDA version is no failure"
                + " (https://github.com/NVIDIA/nccl/issues/1235)",
            """
            ng30903:3063026:3063026 [1] NCCL INFO cudaDriverVersion 12040
            """),
        given(
            "deviceQuery's driver and runtime versions are no failure"
                + " (https://github.com/uzh-rpg/rpg_open_remode/issues/9)",
            """
              CUDA Driver Version / Runtime Version          7.0 / 6.5
            """),
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
