package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CUDA 46 and 3 from any NCCL file: the GPU is held or failed to initialise. Sources of the texts:
 * nccl/messages/README.md.
 */
class GpuUnavailableRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "vLLM's start-up memory check (gpu_worker.py's format, the values a benchmark's note"
                    + " quotes)",
                """
                ValueError: Free memory on device cuda:0 (7.34/15.49 GiB) on startup is less than desired GPU memory utilization (0.8, 12.39 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.
                """)
            .expect(error("fractions that add up to less than 1").at("a.log:1")),
        given(
                "SGLang's memory balance check (model_runner.py's format, the values of a run"
                    + " quoted in the code corpus)",
                """
                RuntimeError: The memory capacity is unbalanced. Some GPUs may be occupied by other processes. min_per_gpu_memory=16.28, local_gpu_memory=46.81, local_gpu_memory * 0.9=42.129
                """)
            .expect(error("privileged").at("a.log:1")),
        given(
                "PyTorch's warning at CUDA initialization (https://github.com/pytorch/pytorch/issues/159954)",
                """
                /home/krish/miniconda3/envs/ass-test/lib/python3.10/site-packages/torch/cuda/__init__.py:174: UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero. (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:109.)
                  return torch._C._cuda_getDeviceCount() > 0
                """)
            .expect(error("nvidia_uvm").at("a.log:1")),
        given(
                "NVML inside a container that lost its GPUs (nvidia-smi's words)",
                """
                Failed to initialize NVML: Unknown Error
                """)
            .expect(error("daemon-reload", "cgroupfs").at("a.log:1")),
        given(
                "CUDA 46 at init (init.cc, 2.28.3)",
                """
                node-a:4021:4090 [0] init.cc:1987 NCCL WARN Cuda failure 'CUDA-capable device(s) is/are busy or unavailable'
                node-a:4021:4090 [0] NCCL INFO init.cc:2150 -> 1
                """)
            .expect(
                error("exclusive-process compute mode", "nvidia-smi -q -d COMPUTE").at("a.log:1")),
        given(
                "CUDA 46 in its pre-11 wording (2.11)",
                """
                node-a:4021:4090 [2] transport/p2p.cc:238 NCCL WARN Cuda failure 'all CUDA-capable devices are busy or unavailable'
                """)
            .expect(error("busy or unavailable").at("a.log:1")),
        given(
                "CUDA 3 initialization error",
                """
                node-a:4021:4090 [0] init.cc:1987 NCCL WARN Cuda failure 'initialization error'
                """)
            .expect(error("initialization error").at("a.log:1")),
        given(
                "nccl-tests in a pyxis container on a host without nvidia_uvm loaded: CUDA 999"
                    + " (https://github.com/NVIDIA/pyxis/issues/81)",
                """
                # Using devices
                compute-od-gpu-dy-p4d-24xlarge-1: Test CUDA failure common.cu:1045 'unknown error'
                 .. compute-od-gpu-dy-p4d-24xlarge-1 pid 8575: Test failure common.cu:1007
                """)
            .expect(error("CUDA 999", "modprobe nvidia-uvm").at("a.log:2")),
        given(
            "aws-ofi-nccl's unquoted 'Error: unknown error' of a transfer (the issue's title) is not CUDA's"
                + " (https://github.com/aws/aws-ofi-nccl/issues/161)",
            """
            NCCL WARN NET/OFI Request completed with error. RC: 21. Error: unknown error
            """),
        given(
            "an invalid device ordinal is invalid-device's",
            """
            node-a:4021:4090 [0] init.cc:1987 NCCL WARN Cuda failure 'invalid device ordinal'
            """),
        given("a healthy init", Logs.rankOfTwo(0, "node-a", 1, "P2P/CUMEM")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new GpuUnavailable(), "gpu-unavailable", c);
  }
}
