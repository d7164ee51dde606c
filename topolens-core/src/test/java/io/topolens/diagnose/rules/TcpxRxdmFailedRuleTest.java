package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GKE's GPUDirect-TCPX/TCPXO receive-datapath manager (RxDM) and the FasTrak plugin's wait for it:
 * the texts of google/nccl-plugin-gpudirect-tcpxo (buffer_mgmt_daemon/fastrak_gpumem_manager.cc,
 * tcpdirect_plugin/fastrak_offload/init.cc; sources in nccl/failures/README.md) with sample values.
 */
class TcpxRxdmFailedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "the RxDM's PCI-tree GPU count, its sidecar log pasted (no /sys mounted: 0)",
                """
                Number of GPUs detected in the PCI tree 0 is not equal to the actual number of GPUs reported by CUDA 8.
                connect() error: 111: Connection refused
                """)
            .expect(
                error(
                        "receive-datapath manager (RxDM) failed or is not running",
                        "gVNIC network",
                        "/hostsysfs",
                        "networking.gke.io/nic-info")
                    .at("a.log:1")),
        given(
                "the RxDM's NIC count",
                """
                E0301 10:00:00.000000 1 fastrak_gpumem_manager.cc:305] Number of NICs detected (7) is not equal to the actual number of NICs specified (8).
                """)
            .expect(
                error("a GPU NIC network is missing", "networking.gke.io/interfaces")
                    .at("a.log:1")),
        given(
                "the FasTrak plugin gave up waiting for the RxDM, behind NCCL's header",
                """
                gke-a3mega-1:51:51 [0] init.cc:97 NCCL WARN NET/FasTrak 2025-03-01T10:00:00Z: Timeout: RxDM not ready on gke-a3mega-1 after 600 seconds: UNAVAILABLE: connect() error: 111: Connection refused
                """)
            .expect(
                error("the sidecar is not in the pod", "kubectl logs POD -c tcpxo-daemon")
                    .at("a.log:1")),
        given(
            "the plugin still waiting (INFO) is no failure: the RxDM came up",
            """
            gke-a3mega-1:51:51 [0] NCCL INFO NET/FasTrak 2025-03-01T10:00:03Z: RxDM not ready after 3 seconds (status: UNAVAILABLE: connect() error: 111: Connection refused), retrying... (timeout 600 s)
            gke-a3mega-1:51:51 [0] NCCL INFO NET/FasTrak 2025-03-01T10:00:04Z: RxDM ready
            """),
        given(
            "the RxDM ready, and another program's GPU count",
            """
            Buffer manager initialization completed.
            Number of GPUs detected: 8
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new TcpxRxdmFailed(), "tcpx-rxdm-failed", c);
  }
}
