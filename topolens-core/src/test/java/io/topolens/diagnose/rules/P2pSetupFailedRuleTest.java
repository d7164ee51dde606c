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
            .expect(error("network namespaces", "NCCL_CUMEM_ENABLE=0").at("a.log:1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new P2pSetupFailed(), "p2p-setup-failed", c);
  }
}
