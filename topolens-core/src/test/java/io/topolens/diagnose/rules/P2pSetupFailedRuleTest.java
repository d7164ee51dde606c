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
