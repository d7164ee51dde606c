package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class P2pSetupFailedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "a CUDA failure in the P2P transport's buffer sharing, SGLang"
                    + " (https://github.com/sgl-project/sglang/issues/6246)",
                """
                6f747114300646eb-5af0524bda8e4aee:4167:5269 [0] transport/p2p.cc:275 NCCL WARN Cuda failure 'invalid argument'
                """)
            .expect(
                error(
                        "NCCL could not set up GPU peer-to-peer (P2P) access",
                        "legacy CUDA IPC handles",
                        "The log does not show the variable",
                        "NCCL_CUMEM_ENABLE=1")
                    .lacks("The log shows NCCL_CUMEM_ENABLE=0")
                    .at("a.log:1")),
        given(
                "cuMem turned off by the environment, NCCL 2.26.2's bare version line"
                    + " (https://github.com/NVIDIA-NeMo/RL/issues/564, held-out set 14's s09, after it"
                    + " was measured; the NCCL_CUMEM_ENABLE line in NCCL's 'set by environment to'"
                    + " form, host invented)",
                """
                NCCL version 2.26.2+cuda12.2
                node-a:10:10 [0] NCCL INFO NCCL_CUMEM_ENABLE set by environment to 0.
                transport/p2p.cc:298 NCCL WARN Cuda failure 'invalid argument'
                """)
            .expect(
                error(
                        "The log shows NCCL_CUMEM_ENABLE=0 (NCCL 2.26.2+cuda12.2)",
                        "cudaIpcOpenMemHandle",
                        "unset NCCL_CUMEM_ENABLE or set NCCL_CUMEM_ENABLE=1")
                    .at("a.log:3", "a.log:2")),
        given(
            "a CUDA failure of NVLS is nvls-error's (https://github.com/NVIDIA/nccl/issues/1672)",
            """
            transport/nvls.cc:598 NCCL WARN Cuda failure 1 'invalid argument'
            """),
        given(
            "a CUDA failure of an allocation is not P2P's (https://github.com/NVIDIA/nccl/issues/1283)",
            """
            include/alloc.h:102 NCCL WARN Cuda failure 1 'invalid argument'
            """),
        given(
            "cuMem turned off and P2P wired is no failure",
            """
            node-a:10:10 [0] NCCL INFO NCCL_CUMEM_ENABLE set by environment to 0.
            node-a:10:20 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC
            """),
        given(
                "CUDA IPC handle refused (error 217), NCCL 2.7",
                excerpt("p2p-ipc-217-ray-lightning-24.log"))
            .expect(
                error(
                        "NCCL could not set up GPU peer-to-peer (P2P) access",
                        "rank pair(s) 0-1 over P2P",
                        "communicator init failed",
                        "IOMMU or ACS",
                        "nvidia-smi topo -p2p r",
                        "p2pBandwidthLatencyTest")
                    .at("a.log:8")),
        given(
                "the SHM transport's cuMem host buffers refused on L4s, NCCL 2.27"
                    + " (https://github.com/NVIDIA/nccl/issues/1838)",
                """
                [2025-09-09 23:51:24] 9b405963aa12:774:854 [0] transport/shm.cc:590 NCCL WARN Cuda failure 217 'peer access is not supported between these two devices'
                """)
            .expect(
                error(
                        "NCCL could not set up GPU peer-to-peer (P2P) access",
                        "NCCL_CUMEM_HOST_ENABLE=0")
                    .at("a.log:1")),
        given(
                "could not enable P2P and carried on (Ray, public fixture 025 from ray#16979)",
                """
                (pid=21065) dev-duanjiangfei-ap0:21065:21341 [1] NCCL INFO Could not enable P2P between dev 1(=90) and dev 0(=80)
                """)
            .expect(
                warn("NCCL carries on through shared memory")
                    .lacks("communicator init failed")
                    .at("a.log:1")),
        given(
                "CUDA 711 from the cuMem allocator: more than 8 peers (nccl issue 1874's form)",
                """
                gn11:193261:193261 [0] allocator.cc:79 NCCL WARN Cuda failure 711 'peer mapping resources exhausted'
                """)
            .expect(
                error(
                        "A GPU ran out of CUDA peer mappings",
                        "at most 8 peer GPUs",
                        "one process per GPU")
                    .lacks("IOMMU or ACS")
                    .at("a.log:1")),
        given(
                "the runtime's enum name in a framework's line",
                """
                host:1:2 [0] transport/p2p.cc:300 NCCL WARN Cuda failure 'cudaErrorTooManyPeers'
                """)
            .expect(error("ran out of CUDA peer mappings").at("a.log:1")),
        given(
            "P2P works",
            rankOfTwo(0, "node-a", 1, "P2P/CUMEM/read"),
            rankOfTwo(1, "node-a", 1, "P2P/CUMEM/read")),
        given(
                "the Unix socket cuMem passes handles over (misc/ipcsocket.cc, 2.28.3; nccl/messages)",
                """
                node-a:4021:4090 [0] misc/ipcsocket.cc:190 NCCL WARN UDS: Sending data over socket /tmp/nccl-socket-3-7a2b failed : Connection refused (111)
                """)
            .expect(error("network namespaces", "NCCL_CUMEM_ENABLE=0").at("a.log:1")),
        given(
                "vLLM's custom all-reduce kernel on 2x T4, in SGLang (sglang issue 552), no NCCL word",
                """
                Failed: Cuda error /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:307 'peer access is not supported between these two devices'
                """)
            .expect(
                error(
                        "the framework's own P2P path needs it",
                        "--disable-custom-all-reduce",
                        "nvidia-smi topo -p2p r")
                    .at("a.log:1")),
        given(
                "PyTorch's CUDA error from vLLM 0.8.4's engine (ai-dynamo/dynamo issue 1229)",
                """
                RuntimeError: CUDA error: peer access is not supported between these two devices
                CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
                """)
            .expect(error("the framework's own P2P path needs it").at("a.log:1")),
        given(
                "TensorRT-LLM on 2x RTX 4090D (TensorRT-LLM issue 1625)",
                """
                [TensorRT-LLM][ERROR] [TensorRT-LLM][ERROR] CUDA runtime error in error: peer access is not supported between these two devices
                """)
            .expect(error("use_custom_all_reduce").at("a.log:1")),
        given(
                "DeepEP's intranode buffers from SGLang, CUDA's text on a line of its own (DeepEP issue"
                    + " 584)",
                """
                RuntimeError: Failed: CUDA error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:200
                'peer access is not supported between these two devices'
                """)
            .expect(error("DeepEP").at("a.log:2")),
        given(
            "lmdeploy's warning that peer access is not available is no failure (lmdeploy issue 2076)",
            """
            [TM][WARNING] Device 0 peer access Device 1 is not available.
            """),
        given(
            "a maintainer's prose about peer access (TensorRT-LLM issue 1499)",
            """
            peer access is determined by your network topo. And custom allreudce is only supported when the peer access is supported.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new P2pSetupFailed(), "p2p-setup-failed", c);
  }
}
