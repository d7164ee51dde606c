package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NcclErrorRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "Horovod's NCCL_CHECK with NCCL 1's 'invalid data type', mpirun's prefix (a"
                    + " comment of https://github.com/horovod/horovod/issues/907)",
                """
                [1,0]<stderr>:tensorflow.python.framework.errors_impl.UnknownError: 2 root error(s) found.
                [1,0]<stderr>:  (0) Unknown:  ncclAllReduce failed: invalid data type
                [1,0]<stderr>:   [[node DistributedGradientTape_Allreduce/HorovodAllreduce_BiasAddGrad_0 (defined at <string>:80) ]]
                """)
            .expect(
                error(
                        "NCCL call failed: ncclInvalidType",
                        "loaded an NCCL 1 library at run time",
                        "Anaconda's nccl package",
                        "conda remove nccl",
                        "HOROVOD_NCCL_HOME")
                    .at("a.log:2")),
        given(
                "PyTorch's NCCL error without NCCL's last error, NCCL's own CUDA failure WARN before"
                    + " it: cited and read (https://github.com/NVIDIA/nccl/issues/1283, its title and"
                    + " first WARN)",
                """
                (train_rft pid=2657296) 2024-05-11 14:10:52.227 n176-080-198:2657296:2658232 [0] include/alloc.h:102 NCCL WARN Cuda failure 1 'invalid argument'
                RuntimeError: NCCL Error 1: unhandled cuda error (run with NCCL_DEBUG=INFO for details)
                """)
            .expect(
                error(
                        "NCCL call failed: ncclUnhandledCudaError",
                        "NCCL's own WARN line before it says why: \"Cuda failure 1 'invalid argument'\"",
                        "CUDA's own error for the call NCCL made")
                    .lacks("The log holds no NCCL error text")
                    .at("a.log:2", "a.log:1")),
        given(
                "Horovod's NCCL_CHECK text in a title (https://github.com/horovod/horovod/issues/91)",
                """
                ERROR: ncclAllReduce failed: invalid data type
                """)
            .expect(error("NCCL call failed: ncclInvalidType").at("a.log:1")),
        given(
                "NVLS bind failure, PyTorch's exception only",
                excerpt("nvls-bind-distbackenderror-pytorch-177472.log"))
            .expect(
                error(
                        "NCCL call failed: ncclUnhandledCudaError",
                        "(NCCL 2.29.3)",
                        // PyTorch's error and NCCL's result line: one failure, two lines
                        "The framework reported a failed NCCL call on 2 lines (one failure is often"
                            + " printed more than once",
                        "a CUDA call inside NCCL failed",
                        "NCCL's last error: \"Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152")
                    .at("a.log:1", "a.log:2", "a.log:4")),
        given(
                "a system error without NCCL's text: its usual causes in order, /dev/shm in a"
                    + " container first (https://github.com/NVIDIA/Megatron-LM/issues/71)",
                """
                RuntimeError: NCCL error in: ../torch/lib/c10d/ProcessGroupNCCL.cpp:839, unhandled system error, NCCL version 2.8.3
                ncclSystemError: System call (socket, malloc, munmap, etc) failed.
                """)
            .expect(
                error(
                        "NCCL call failed: ncclSystemError",
                        "the likeliest first (a likely cause, not a certainty",
                        "in a container, /dev/shm too small or not shared",
                        "; a socket between hosts",
                        "Check in this order: inside the container, df -h /dev/shm")
                    .at("a.log:1", "a.log:2")),
        given(
                "the watchdog died of NCCL's remote error, the line alone"
                    + " (https://github.com/pytorch/pytorch/issues/150916)",
                """
                  what():  [PG ID 0 PG GUID 0(default_pg) Rank 1] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5
                """)
            .expect(error("NCCL call failed: ncclRemoteError").at("a.log:1")),
        given(
                "vLLM's pynccl on rank 0, no NCCL text: the GPU's checks"
                    + " (https://github.com/vllm-project/vllm/issues/6732)",
                """
                [rank0]: RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)
                """)
            .expect(
                error(
                        "NCCL call failed: ncclUnhandledCudaError",
                        "a failed NCCL call on rank 0.",
                        "a GPU that failed or fell off the bus",
                        "nvidia-smi",
                        "dmesg | grep -i xid")
                    .at("a.log:1")),
        given(
                "XLA's text: result and NCCL's last warning on one line, cited once"
                    + " (https://github.com/jax-ml/jax/issues/22747)",
                """
                INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:305: NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error (run with NCCL_DEBUG=INFO for details). Last NCCL warning(error) log entry (may be unrelated) 'socketTryAccept: Accept failed: Bad file descriptor'.
                """)
            .expect(
                error(
                        "NCCL call failed: ncclSystemError",
                        "NCCL's last error: \"socketTryAccept: Accept failed: Bad file descriptor\"")
                    .lacks("dmesg", "on rank")
                    .at("a.log:1")),
        given(
                "internal error without NCCL's text",
                excerpt("internal-error-no-last-error-aws-ofi-nccl-316.log"))
            .expect(
                error(
                        "NCCL call failed: ncclInternalError",
                        "(NCCL 2.18.5)",
                        "a network plugin that does not match the NCCL version",
                        "The log holds no NCCL error text: run again with NCCL_DEBUG=WARN")
                    .at("a.log:1", "a.log:2")),
        given(
                "a missing interface surfaces as an internal error",
                excerpt("socket-ifname-missing-af-inet-nccl-1837.log"))
            .expect(
                error(
                        "NCCL call failed: ncclInternalError",
                        "NCCL's last error: \"ncclSocketInit: connecting to address  with family 59936")
                    .at("a.log:3", "a.log:5")),
        given(
                "PyTorch 1.7 unhandled cuda error beside NCCL's WARN",
                excerpt("p2p-ipc-217-ray-lightning-24.log"))
            .expect(
                error("NCCL call failed: ncclUnhandledCudaError", "(NCCL 2.7.8)").at("a.log:1")),
        given(
                "communicator aborted: a consequence",
                """
                torch.distributed.DistBackendError: NCCL communicator was aborted on rank 2.
                """)
            .expect(
                error(
                        "NCCL call failed: aborted",
                        "a consequence",
                        "Find the rank that failed first")
                    .at("a.log:1")),
        given(
            "a watchdog timeout is no NCCL error",
            excerpt("watchdog-same-call-llamafactory-7396.log")),
        given(
            "a healthy job",
            rankOfTwo(0, "node-a", 1, "P2P/CUMEM/read"),
            rankOfTwo(1, "node-a", 1, "P2P/CUMEM/read")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new NcclError(), "nccl-error", c);
  }
}
