package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** NCCL's topology XML and sysfs failures at init (graph/xml.h, xml.cc, search.cc). */
class TopologyDetectionFailedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "topo.h's lookup of a NET the graph names (ncclTopoIdToIndex, NCCL 2.25)",
                """
                node7:3311:3390 [2] graph/topo.h:230 NCCL WARN Could not find NET with id 0
                """)
            .expect(
                error("NCCL could not build its topology", "Could not find NET with id N", "2.27")
                    .at("a.log:1")),
        given(
            "the graph search's fallback alone is no failure",
            """
            node7:3311:3390 [2] graph/search.cc:1135 NCCL WARN Could not find a path for pattern 1, falling back to simple order
            """),
        given(
                "xml.h: a CPU node without arch (https://github.com/aws/aws-ofi-nccl/issues/785)",
                """
                2a8874e7d1e6:2196:2275 [1] graph/xml.h:101 NCCL WARN Attribute arch of node cpu not found
                2a8874e7d1e6:2196:2275 [1] NCCL INFO graph/topo.cc:493 -> 3
                """)
            .expect(error("NCCL could not build its topology", "NCCL_TOPO_FILE").at("a.log:1")),
        given(
                "search.cc: NCCL_GRAPH_FILE names a missing GPU (https://github.com/Azure/azhpc-images/issues/327)",
                """
                ::16674:17023 [0] NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/microsoft/ncv4/graph.xml

                ::16674:17023 [0] graph/search.cc:703 NCCL WARN XML Import Channel : dev 1 not found.
                """)
            .expect(error("NCCL_GRAPH_FILE names a GPU").at("a.log:3")),
        given(
                "xml.cc: the GPU's PCI path missing from sysfs (https://github.com/NVIDIA/nccl/issues/573)",
                """
                SHJS-PF4ZKYLL:92777:92889 [0] graph/xml.cc:332 NCCL WARN Could not find real path of /sys/class/pci_bus/0000:01/../../0000:01:00.0
                """)
            .expect(error("WSL2").at("a.log:1")),
        given(
            "net_ib.cc's real path of an IB device is not the GPU's topology",
            """
            host:1:2 [0] NCCL WARN Could not find real path of mlx5_0 (/sys/class/infiniband/mlx5_0/device)
            """),
        given(
            "rings that do not join up are topology-mismatch's (nccl issue 1020)",
            """
            [7] graph/rings.cc:38 NCCL WARN Error : ring 0 does not loop back to start (13 != 15).
            """),
        given(
                "no CPU close to the GPU (graph/paths.cc:171, 2.28.3; nccl/messages)",
                """
                node-a:4021:4090 [3] graph/paths.cc:171 NCCL WARN Error : could not find CPU close to GPU 3
                """)
            .expect(error("numa_node", "taskset").at("a.log:1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new TopologyDetectionFailed(), "topology-detection-failed", c);
  }
}
