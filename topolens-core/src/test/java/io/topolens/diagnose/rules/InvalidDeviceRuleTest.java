package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CUDA 101 'invalid device ordinal' and CUDA 100 'no CUDA-capable device', from NCCL's CUDACHECK in
 * any file, from nccl-tests, and CUDA 101 in PyTorch's own words (held-out set 12's p09).
 */
class InvalidDeviceRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "JAX's CUDA backend without a GPU (xla_bridge.py's message)",
                """
                RuntimeError: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices. (you may need to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)
                """)
            .expect(error("jax[cuda12]").at("a.log:1")),
        given(
                "CUDAContext.cpp's check of a device index the process does not see"
                    + " (https://github.com/THUDM/slime/issues/10)",
                """
                RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "/pytorch/aten/src/ATen/cuda/CUDAContext.cpp":52, please report a bug to PyTorch. device=1, num_gpus=1
                """)
            .expect(error("A rank asked for a GPU its process cannot see").at("a.log:1")),
        given(
                "CUDAFunctions.cpp's cudaErrorNoDevice in PyTorch's words",
                """
                RuntimeError: No CUDA GPUs are available
                """)
            .expect(error("A rank asked for a GPU its process cannot see").at("a.log:1")),
        given(
                "NCCL's p2p.cc, a title line (https://github.com/NVIDIA/nccl/issues/1948)",
                """
                transport/p2p.cc:275 NCCL WARN Cuda failure 101 'invalid device ordinal'
                """)
            .expect(
                error("A rank asked for a GPU its process cannot see", "local_rank").at("a.log:1")),
        given(
                "nccl-tests with hosts, 8 ranks per node (https://github.com/NVIDIA/nccl-tests/issues/263)",
                """
                # Using devices
                g0010: Test CUDA failure common.cu:941 'invalid device ordinal'
                 .. g0010 pid 888386: Test failure common.cu:891
                g0016: Test CUDA failure common.cu:941 'invalid device ordinal'
                 .. g0016 pid 3645592: Test failure common.cu:891
                """)
            .expect(error("2 line(s) of 1 distinct form(s)").at("a.log:2")),
        given(
                "nccl-tests before 2.x (https://github.com/NVIDIA/nccl-tests/issues/2)",
                """
                >> Cuda failure common.cu:891 'invalid device ordinal'
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "CUDA 100, no GPU seen at all, nccl-tests (https://github.com/NVIDIA/nccl-tests/issues/30)",
                """
                # Using devices
                458398: Test CUDA failure common.cu:730 'no CUDA-capable device is detected'
                """)
            .expect(error("no GPU at all", "CUDA_VISIBLE_DEVICES").at("a.log:2")),
        given(
                "PyTorch's set_device, CUDA_VISIBLE_DEVICES=2,3 with a launcher for more GPUs"
                    + " (https://github.com/pytorch/torchtitan/issues/423)",
                """
                      torch._C._cuda_setDevice(device)
                  RuntimeError: CUDA error: invalid device ordinal
                  CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
                """)
            .expect(error("A rank asked for a GPU its process cannot see").at("a.log:2")),
        given(
                "PyTorch 1.x, --nproc_per_node=4 with two visible GPUs"
                    + " (https://github.com/wenwenyu/PICK-pytorch/issues/14)",
                """
                RuntimeError: cuda runtime error (101) : invalid device ordinal at /pytorch/torch/csrc/cuda/Module.cpp:59
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "THC's check, one line per rank"
                    + " (https://github.com/mlcommons/training_results_v0.5/issues/9)",
                """
                THCudaCheck FAIL file=torch/csrc/cuda/Module.cpp line=34 error=10 : invalid device ordinal
                THCudaCheck FAIL file=torch/csrc/cuda/Module.cpp line=34 error=10 : invalid device ordinal
                """)
            .expect(error("2 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
            "PyTorch's other CUDA errors are not a missing device",
            """
            RuntimeError: CUDA error: invalid argument
            RuntimeError: CUDA error: an illegal memory access was encountered
            """),
        given(
            "another CUDA failure is not a missing device (nccl issue 846)",
            """
            transport.cc:154 NCCL WARN Cuda failure 'invalid argument'
            """),
        given(
                "PyTorch Lightning's device parser, its two lines (device_parser.py, Lightning"
                    + " 1.x-2.x; a Slurm prolog narrowed CUDA_VISIBLE_DEVICES to one GPU per task)",
                """
                lightning_fabric.utilities.exceptions.MisconfigurationException: You requested gpu: [0, 1, 2, 3]
                 But your machine only has: [0]
                """)
            .expect(
                error("A rank asked for a GPU its process cannot see", "--gpus-per-node")
                    .at("a.log:2")),
        given(
                "the same with no GPU at all, flattened in a README's troubleshooting list"
                    + " (a CPU-only PyTorch build)",
                """
                pytorch_lightning.utilities.exceptions.MisconfigurationException: You requested GPUs: [0] But your machine only has: []
                """)
            .expect(error("an empty list").at("a.log:1")),
        given(
            "a model's memory estimate in prose is not a device list",
            """
            Model needs ~80.0 GB but your machine only has 64 GB total. This model is too large to run on this hardware.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new InvalidDevice(), "invalid-device", c);
  }
}
