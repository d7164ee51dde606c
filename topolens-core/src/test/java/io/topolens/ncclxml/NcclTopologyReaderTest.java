package io.topolens.ncclxml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.Fixtures;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NCCL topology files: the 4 x H200 dump (fixtures/h200x4/topo.xml) and two public files (sources
 * and facts in public/nccl-xml/README.md), read exactly as the READMEs say.
 */
class NcclTopologyReaderTest {
  private static final String H200 = "fixtures/h200x4/topo.xml";
  private static final String IBM =
      "public/nccl-xml/001-ibm-h100-8gpu-4nvswitch-8x200g-mlx5-topo.xml";
  private static final String AZURE =
      "public/nccl-xml/002-azure-ncv4-4xa100-nvlink-pairs-4numa-topo.xml";

  static NcclTopology read(String resource) throws InputProblem {
    return new NcclTopologyReader().read(Fixtures.path(resource));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
fixtures/h200x4/topo.xml | 1 | 4 | 90 | 18 | 18 | eth0:10.0:0 | -1,-1,-1,-1
public/nccl-xml/001-ibm-h100-8gpu-4nvswitch-8x200g-mlx5-topo.xml | 2 | 8 | 90 | 18 | 18 | mlx5_7:200.0:1,mlx5_6:200.0:1,mlx5_5:200.0:1,mlx5_4:200.0:1,mlx5_3:200.0:1,mlx5_2:200.0:1,mlx5_1:200.0:1,mlx5_0:200.0:1 | 0,0,0,0,1,1,1,1
public/nccl-xml/002-azure-ncv4-4xa100-nvlink-pairs-4numa-topo.xml | 4 | 4 | 80 | 12 | 0 | eth0:100.0:0 | 0,1,2,3
""")
  void counts(
      String resource,
      int cpus,
      int gpus,
      int sm,
      int nvlinksPerGpu,
      int nvswitchLinksPerGpu,
      String nets,
      String gpuNuma)
      throws InputProblem {
    NcclTopology t = read(resource);
    assertThat(t.version()).isEqualTo("1");
    assertThat(t.unknown().count()).isZero();
    assertThat(t.cpus()).hasSize(cpus);
    assertThat(t.gpus()).hasSize(gpus);
    assertThat(t.gpus()).extracting(NcclGpu::dev).containsExactlyElementsOf(range(gpus));
    assertThat(t.gpus()).extracting(NcclGpu::rank).containsExactlyElementsOf(range(gpus));
    assertThat(t.gpus()).allSatisfy(g -> assertThat(g.sm()).isEqualTo(sm));
    assertThat(t.gpus()).allSatisfy(g -> assertThat(g.gdr()).isEqualTo(1));
    assertThat(t.gpus()).allSatisfy(g -> assertThat(g.nvlinkCount()).isEqualTo(nvlinksPerGpu));
    assertThat(t.gpus())
        .allSatisfy(g -> assertThat(g.nvswitchLinks()).isEqualTo(nvswitchLinksPerGpu));
    assertThat(
            String.join(
                ",",
                t.nets().stream()
                    .map(n -> n.name() + ":" + n.speedGbps() + ":" + n.gdr())
                    .toList()))
        .isEqualTo(nets);
    List<String> gpuCpus = t.gpus().stream().map(g -> t.cpuOf(g).orElseThrow().numaId()).toList();
    assertThat(String.join(",", gpuCpus)).isEqualTo(gpuNuma);
  }

  @Test
  void h200InAVm() throws InputProblem {
    NcclTopology t = read(H200);
    NcclCpu cpu = t.cpus().getFirst();
    assertThat(cpu.numaId()).isEqualTo("-1");
    assertThat(cpu.numaNode()).isNull();
    assertThat(cpu.cpus()).isNull();
    assertThat(cpu.vendor()).isEqualTo("GenuineIntel");
    assertThat(cpu.modelId()).isEqualTo(207);
    assertThat(cpu.hostHash()).isEqualTo("0x59d3aff3dd53efed");
    NcclGpu g0 = t.gpu(0).orElseThrow();
    assertThat(g0.busId()).isEqualTo("0000:00:06.0");
    assertThat(g0.nvlinks())
        .singleElement()
        .satisfies(
            l -> {
              assertThat(l.target()).isEqualTo("fffffff:ff:ff.0");
              assertThat(l.count()).isEqualTo(18);
              assertThat(l.targetKind()).isEqualTo(PciClass.NVSWITCH);
            });
    assertThat(t.nvlinks(0, 1)).isZero();
    NcclPci p = t.pci("0000:00:06.0").orElseThrow();
    assertThat(p.kind()).isEqualTo(PciClass.GPU);
    assertThat(p.linkSpeedGts()).isEqualTo(32.0);
    assertThat(p.linkWidth()).isZero();
    assertThat(p.parentBusId()).isNull();
    NcclNet eth0 = t.net("eth0").orElseThrow();
    assertThat(eth0.speedMbps()).isEqualTo(10000L);
    assertThat(eth0.maxConn()).isEqualTo(65536);
    assertThat(eth0.latency()).isZero();
    assertThat(eth0.busId()).isNull();
    assertThat(eth0.evidence().line()).isEqualTo(9);
  }

  /**
   * IBM H100: each GPU shares a PCIe switch with one NIC, and its 18 links spread over 4
   * NVSwitches.
   */
  @ParameterizedTest(name = "GPU{0}")
  @CsvSource({
    "0, mlx5_7, 0000:a1:00.0, 0",
    "1, mlx5_6, 0000:ab:00.0, 0",
    "2, mlx5_5, 0000:b5:00.0, 0",
    "3, mlx5_4, 0000:bf:00.0, 0",
    "4, mlx5_3, 0000:c9:00.0, 1",
    "5, mlx5_2, 0000:d3:00.0, 1",
    "6, mlx5_1, 0000:dd:00.0, 1",
    "7, mlx5_0, 0000:e7:00.0, 1"
  })
  void ibmGpuNicPairs(int dev, String nic, String pciSwitch, String numa) throws InputProblem {
    NcclTopology t = read(IBM);
    NcclGpu g = t.gpu(dev).orElseThrow();
    NcclNet n = t.net(nic).orElseThrow();
    assertThat(t.commonPciAncestor(g.busId(), n.busId())).isEqualTo(pciSwitch);
    assertThat(t.pci(pciSwitch).orElseThrow().kind()).isEqualTo(PciClass.BRIDGE);
    assertThat(g.cpuNumaId()).isEqualTo(numa);
    assertThat(n.cpuNumaId()).isEqualTo(numa);
    assertThat(g.nvlinks())
        .extracting(NcclNvlink::target)
        .containsExactlyInAnyOrder("0000:f3:00.0", "0000:f4:00.0", "0000:f5:00.0", "0000:f6:00.0");
    assertThat(g.nvlinks()).extracting(NcclNvlink::count).containsExactlyInAnyOrder(5, 5, 4, 4);
    assertThat(t.commonPciAncestor(g.busId(), t.gpu((dev + 1) % 8).orElseThrow().busId())).isNull();
  }

  @Test
  void ibmCpuMasks() throws InputProblem {
    NcclTopology t = read(IBM);
    assertThat(t.cpus().get(0).cpus()).hasSize(80).startsWith(0).endsWith(79);
    assertThat(t.cpus().get(1).cpus()).hasSize(80).startsWith(80).endsWith(159);
    assertThat(t.gpusOn("1")).extracting(NcclGpu::dev).containsExactly(4, 5, 6, 7);
    assertThat(t.netsOn("0"))
        .extracting(NcclNet::name)
        .containsExactly("mlx5_7", "mlx5_6", "mlx5_5", "mlx5_4");
  }

  /** Azure NCv4: NVLink bridges join GPU0-GPU1 and GPU2-GPU3 only, 12 links each. */
  @ParameterizedTest(name = "GPU{0}-GPU{1}: {2}")
  @CsvSource({"0, 1, 12", "1, 0, 12", "2, 3, 12", "3, 2, 12", "0, 2, 0", "0, 3, 0", "1, 2, 0"})
  void azureNvlinkPairs(int a, int b, int links) throws InputProblem {
    NcclTopology t = read(AZURE);
    assertThat(t.nvlinks(a, b)).isEqualTo(links);
    assertThat(t.gpu(a).orElseThrow().nvlinks().getFirst().targetKind()).isEqualTo(PciClass.GPU);
  }

  @Test
  void azureEmptyAttributesAndNicOnCpu() throws InputProblem {
    NcclTopology t = read(AZURE);
    assertThat(t.pci())
        .hasSize(4)
        .allSatisfy(
            p -> {
              assertThat(p.linkSpeed()).isNull();
              assertThat(p.linkSpeedGts()).isNull();
              assertThat(p.linkWidth()).isZero();
            });
    NcclNet eth0 = t.net("eth0").orElseThrow();
    assertThat(eth0.busId()).isNull();
    assertThat(t.cpuOf(eth0).orElseThrow().cpus()).hasSize(24).startsWith(0).endsWith(23);
    assertThat(t.cpus()).extracting(NcclCpu::numaNode).containsExactly(0, 1, 2, 3);
  }

  @Test
  void truncatedFileIsAnInputProblemWithLine() throws IOException {
    String text = Files.readString(Fixtures.path(H200));
    String cut = text.substring(0, text.indexOf("<gpu dev=\"2\""));
    assertThatThrownBy(() -> new NcclTopologyReader().read("topo-cut.xml", cut))
        .isInstanceOf(InputProblem.class)
        .hasMessageStartingWith("topo-cut.xml:")
        .hasMessageContaining("malformed XML")
        .hasMessageNotContaining("\n");
  }

  @Test
  void badNumberNamesLineAndAttribute() throws IOException {
    String text = Files.readString(Fixtures.path(H200));
    String bad = text.replaceFirst("count=\"18\"", "count=\"eighteen\"");
    assertThatThrownBy(() -> new NcclTopologyReader().read("topo-bad.xml", bad))
        .isInstanceOf(InputProblem.class)
        .hasMessage("topo-bad.xml:5: <nvlink> attribute count=\"eighteen\" is not a number");
  }

  @Test
  void graphFileIsNotATopology() {
    assertThatThrownBy(() -> read("fixtures/h200x4/graph.xml"))
        .isInstanceOf(InputProblem.class)
        .hasMessageEndingWith("not an NCCL topology file (root element <graphs>, not <system>)");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "fixtures/h200x4/topo.xml, true, false",
    "public/nccl-xml/001-ibm-h100-8gpu-4nvswitch-8x200g-mlx5-topo.xml, true, false",
    "public/nccl-xml/002-azure-ncv4-4xa100-nvlink-pairs-4numa-topo.xml, true, false",
    "fixtures/h200x4/graph.xml, false, true",
    "public/nccl-xml/003-azure-ncv4-4xa100-graph.xml, false, true",
    "fixtures/h200x4/smi.txt, false, false",
    "fixtures/h200x4/ar-p2p.log, false, false",
    "fixtures/h200x4/ar-p2p.json, false, false"
  })
  void looksLike(String resource, boolean topology, boolean graph) throws IOException {
    byte[] b = Files.readAllBytes(Fixtures.path(resource));
    String head =
        new String(b, 0, Math.min(1024, b.length), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(NcclTopologyReader.looksLike(head)).isEqualTo(topology);
    assertThat(NcclGraphReader.looksLike(head)).isEqualTo(graph);
  }

  private static List<Integer> range(int n) {
    return java.util.stream.IntStream.range(0, n).boxed().toList();
  }
}
