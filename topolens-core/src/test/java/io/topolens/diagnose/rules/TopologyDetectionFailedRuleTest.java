package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.rules.Logs.Case;
import io.topolens.model.Job;
import io.topolens.smi.NvidiaSmiReader;
import io.topolens.smi.SmiReport;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** NCCL's topology XML and sysfs failures at init (graph/xml.h, xml.cc, search.cc). */
class TopologyDetectionFailedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "two containers with different GPUs on one node"
                    + " (https://github.com/NVIDIA/nccl/issues/1529)",
                """
                ucpe-resource033018034100:6896:7103 [1] NCCL INFO ncclCommInitRank comm 0xf1486b0 rank 1 nranks 8 cudaDev 1 nvmlDev 1 busId 8a000 commId 0xc928078d70c6fe2c - Init START

                ucpe-resource033018034100:6896:7103 [1] misc/nvmlwrap.cc:187 NCCL WARN nvmlDeviceGetHandleByPciBusId() failed: Not Found
                ucpe-resource033018034100:6896:7103 [1] NCCL INFO graph/xml.cc:850 -> 2
                """)
            .expect(
                error("NVML ignores CUDA_VISIBLE_DEVICES", "one container or pod per node")
                    .at("a.log:3")),
        given(
                "each rank sees only its own GPU, NCCL 2.12.12"
                    + " (https://github.com/NVIDIA/nccl/issues/1066)",
                """
                NCCL version 2.12.12+cuda11.7

                gcn6:1080061:1080359 [0] misc/nvmlwrap.cc:181 NCCL WARN nvmlDeviceGetHandleByPciBusId() failed: Not Found

                gcn6:1080060:1080354 [0] misc/nvmlwrap.cc:181 NCCL WARN nvmlDeviceGetHandleByPciBusId() failed: Not Found
                gcn6:1080060:1080354 [0] NCCL INFO Setting affinity for GPU 0 to 03ffff
                """)
            .expect(
                error("each rank sees only its own", "ConstrainDevices")
                    .lacks("NCCL_TOPO_FILE")
                    .at("a.log:3")),
        given(
            "NVML's other queries are not the topology's (2.28.3's nvmlwrap.cc:282 format)",
            """
            node-a:4021:4090 [0] misc/nvmlwrap.cc:282 NCCL WARN nvmlDeviceGetP2PStatus() failed: Invalid argument
            """),
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
            .expect(error("numa_node", "taskset").at("a.log:1")),
        given(
                "paths.cc's reverse path after PyTorch's Last error: (https://github.com/ROCm/rccl/issues/1728)",
                """
                [rank2]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, internal error - please report this issue to the NCCL developers, NCCL version 2.20.5
                [rank2]: ncclInternalError: Internal check failed.
                [rank2]: Last error:
                [rank2]: Failed to find reverse path from remNode 0/200000 nlinks 3 to node 0/700000
                """)
            .expect(
                error("NCCL could not build its topology", "no link back", "2.15.1")
                    .lacks("predates")
                    .at("a.log:4")),
        given(
                "the reverse path pasted alone, an issue title (https://github.com/NVIDIA/nccl/issues/1253)",
                """
                Failed to find reverse path from remNode 0/41000 nlinks 2 to node 0/61000
                """)
            .expect(error("no link back", "NCCL_TOPO_DUMP_FILE").at("a.log:1")),
        given(
            "another program's reverse path is not NCCL's",
            """
            traceroute: failed to find reverse path to 10.0.0.7
            """));
  }

  /** The NCCL version and the GPUs the inputs show: NCCL 2.14 on an H100 predates Hopper. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "NCCL 2.14.3 on an H100, 2.14.3, NVIDIA H100 80GB HBM3, NCCL 2.14.3 predates the GPUs",
    "NCCL 2.18.5 on an H100, 2.18.5, NVIDIA H100 80GB HBM3, NCCL could not build its topology",
    "NCCL 2.14.3 on an A100, 2.14.3, NVIDIA A100-SXM4-80GB, NCCL could not build its topology",
    "NCCL 2.14.3 and no GPU shown, 2.14.3, '', NCCL could not build its topology",
  })
  void generationTheVersionPredates(String name, String version, String gpu, String title) {
    Job job =
        Logs.job(
            "host1:10:10 [0] NCCL INFO NCCL version "
                + version
                + "+cuda11.8\n"
                + "host1:10:20 [0] NCCL INFO ncclCommInitRank comm 0x10 rank 0 nranks 4 cudaDev 0"
                + " busId 5f000 commId 0xabc - Init START\n"
                + "host1:10:20 [0] graph/paths.cc:82 NCCL WARN Failed to find reverse path from"
                + " remNode 0/5f000 nlinks 4 to node 0/cb000\n");
    List<SmiReport> smi =
        gpu.isEmpty()
            ? List.of()
            : List.of(
                new NvidiaSmiReader()
                    .read(
                        "smi.txt",
                        "GPU 0: " + gpu + " (UUID: GPU-2b5a4c3e-7d1f-4e5a-9b8c-1d2e3f4a5b6c)\n"));
    List<Finding> found =
        new TopologyDetectionFailed().check(new Observed(job, smi, List.of(), null, List.of()));
    assertThat(found)
        .singleElement()
        .extracting(Finding::title)
        .isEqualTo(
            title.startsWith("NCCL could")
                ? "NCCL could not build its topology (topology/graph XML or sysfs)"
                : title + ": it could not build their topology");
    if (title.contains("predates")) {
      assertThat(found.getFirst().explanation())
          .contains("Hopper (H100, H200, H800) GPUs; NCCL supports them from 2.15.1")
          .contains("https://docs.nvidia.com/deeplearning/nccl/release-notes/rel_2-15-1.html");
      assertThat(found.getFirst().fix()).startsWith("Use NCCL 2.15.1 or later");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new TopologyDetectionFailed(), "topology-detection-failed", c);
  }
}
