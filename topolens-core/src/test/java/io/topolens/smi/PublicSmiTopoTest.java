package io.topolens.smi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.topolens.Fixtures;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The real public {@code topo -m} matrices (sources in public/smi-topo/README.md): every line is
 * recognised and the GPU-pair classes, GPU-NIC cells, NIC legend and per-GPU affinity columns are
 * exactly the README's, written here as the README writes them; the P2P and {@code nvlink -s}
 * outputs beside them.
 */
class PublicSmiTopoTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
001-oci-a100-8gpu-nv12-18nic-numa-3-1-7-5-crlf.txt | 8 | NIC0,NIC1,NIC2,NIC3,NIC4,NIC5,NIC6,NIC7,NIC8,NIC9,NIC10,NIC11,NIC12,NIC13,NIC14,NIC15,NIC16,NIC17 | NIC0=mlx5_0,NIC1=mlx5_1,NIC2=mlx5_2,NIC3=mlx5_3,NIC4=mlx5_4,NIC5=mlx5_5,NIC6=mlx5_6,NIC7=mlx5_7,NIC8=mlx5_8,NIC9=mlx5_9,NIC10=mlx5_10,NIC11=mlx5_11,NIC12=mlx5_12,NIC13=mlx5_13,NIC14=mlx5_14,NIC15=mlx5_15,NIC16=mlx5_16,NIC17=mlx5_17 | NV12: 28 | SYS: 112; PXB: 32 | GPU0,GPU1: 48-63 / 3 / N/A<br>GPU2,GPU3: 16-31 / 1 / N/A<br>GPU4,GPU5: 112-127 / 7 / N/A<br>GPU6,GPU7: 80-95 / 5 / N/A
002-aws-p4d-24xlarge-nv12-mixed-space-tab-gpu-numa-id.txt | 8 | - | - | NV12: 28 | - | GPU0,GPU1,GPU2,GPU3: 0-23,48-71 / 0 / N/A<br>GPU4,GPU5,GPU6,GPU7: 24-47,72-95 / 1 / N/A
003-aws-p5-48xlarge-h100-nv18-gpu-numa-id.txt | 8 | - | - | NV18: 28 | - | GPU0,GPU1,GPU2,GPU3: 0-47,96-143 / 0 / N/A<br>GPU4,GPU5,GPU6,GPU7: 48-95,144-191 / 1 / N/A
004-aws-g6e-12xlarge-4x-l40s-node.txt | 4 | - | - | NODE: 6 | - | GPU0,GPU1,GPU2,GPU3: 0-47 / 0 / N/A
005-h100-8gpu-nv18-no-gpu-numa-id-col.txt | 8 | - | - | NV18: 28 | - | GPU0,GPU1,GPU2,GPU3: 0-51,104-155 / 0 / (no col)<br>GPU4,GPU5,GPU6,GPU7: 52-103,156-207 / 1 / (no col)
006-a100-8gpu-nv12-narrow-reformatted-columns.txt | 8 | - | - | NV12: 28 | - | GPU0,GPU1,GPU2,GPU3: 0-23 / 0 / (no col)<br>GPU4,GPU5,GPU6,GPU7: 24-47 / 1 / (no col)
007-2gpu-nv2-numa-affinity-na-old-driver.txt | 2 | - | - | NV2: 1 | - | GPU0,GPU1: 0-23 / N/A / (no col)
008-2gpu-phb-numa-affinity-na-old-driver.txt | 2 | - | - | PHB: 1 | - | GPU0,GPU1: 0-11 / N/A / (no col)
009-2x-a100-pcie-1nic-mlx5-col-numa-affinity-no-gpu-numa-id.txt | 2 | mlx5_0 | - | NODE: 1 | NODE: 2 | GPU0,GPU1: 32-63 / 1 / (no col)
010-4x-v100-sxm2-nv1-nv2-4mlx5-old-legend-cpu-affinity-only.txt | 4 | mlx5_0,mlx5_1,mlx5_2,mlx5_3 | - | NV2: 3; NODE: 2; NV1: 1 | PIX: 8; NODE: 8 | GPU0,GPU1,GPU2,GPU3: 14-27 / (no col) / (no col)
011-4x-rtx6000ada-2socket-4nic-nic-legend.txt | 4 | NIC0,NIC1,NIC2,NIC3 | NIC0=mlx5_0,NIC1=mlx5_1,NIC2=mlx5_2,NIC3=mlx5_3 | SYS: 4; NODE: 2 | NODE: 8; SYS: 8 | GPU0,GPU1: 0-31 / 0 / N/A<br>GPU2,GPU3: 32-63 / 1 / N/A
012-2x-gpu-threadripper-phb-2nic-nic-legend.txt | 2 | NIC0,NIC1 | NIC0=mlx5_0,NIC1=mlx5_1 | PHB: 1 | NODE: 4 | GPU0,GPU1: 0-23 / 0 / N/A
014-amd-8x-a100-sxm-nv12-10nic-tab-numa-3-1-7-5.txt | 8 | NIC0,NIC1,NIC2,NIC3,NIC4,NIC5,NIC6,NIC7,NIC8,NIC9 | NIC0=mlx5_0,NIC1=mlx5_1,NIC2=mlx5_2,NIC3=mlx5_3,NIC4=mlx5_4,NIC5=mlx5_5,NIC6=mlx5_6,NIC7=mlx5_7,NIC8=mlx5_8,NIC9=mlx5_9 | NV12: 28 | PXB: 16; SYS: 64 | GPU0,GPU1: 48-63,176-191 / 3 / (no col)<br>GPU2,GPU3: 16-31,144-159 / 1 / (no col)<br>GPU4,GPU5: 112-127,240-255 / 7 / (no col)<br>GPU6,GPU7: 80-95,208-223 / 5 / (no col)
015-gooxi-8x-rtx4090-pcie-pix-5-plus-3-2socket-2nic.txt | 8 | NIC0,NIC1 | NIC0=mlx5_0,NIC1=mlx5_1 | PIX: 13; SYS: 15 | NODE: 6; SYS: 10 | GPU0,GPU1,GPU2,GPU3,GPU4: 0-31,64-95 / 0 / N/A<br>GPU5,GPU6,GPU7: 32-63,96-127 / 1 / N/A
016-gooxi-8x-rtx4090-pcie-pix-4-plus-4-one-socket-ibp-nic-names.txt | 8 | NIC0,NIC1 | NIC0=ibp177s0f0,NIC1=ibp177s0f1 | PIX: 12; NODE: 16 | NODE: 16 | GPU0,GPU1,GPU2,GPU3,GPU4,GPU5,GPU6,GPU7: 32-63,96-127 / 1 / N/A
017-sglang-8x-h100-nv18-8nic-pix-one-per-gpu.txt | 8 | NIC0,NIC1,NIC2,NIC3,NIC4,NIC5,NIC6,NIC7 | NIC0=mlx5_0,NIC1=mlx5_1,NIC2=mlx5_2,NIC3=mlx5_3,NIC4=mlx5_4,NIC5=mlx5_5,NIC6=mlx5_6,NIC7=mlx5_7 | NV18: 28 | PIX: 8; NODE: 24; SYS: 32 | GPU0,GPU1,GPU2,GPU3: 0-47,96-143 / 0 / N/A<br>GPU4,GPU5,GPU6,GPU7: 48-95,144-191 / 1 / N/A
018-1x-a100-pcie-4nic-realigned-tabs-spaces.txt | 1 | NIC0,NIC1,NIC2,NIC3 | NIC0=mlx5_0,NIC1=mlx5_1,NIC2=mlx5_2,NIC3=mlx5_3 | - | NODE: 2; SYS: 2 | GPU0: 64-127,192-255 / 1 / N/A
020-4x-h100-nv6-4nic-pix-cpu-list-affinity-numa-3-1-7-5.txt | 4 | NIC0,NIC1,NIC2,NIC3 | - | NV6: 6 | PIX: 4; SYS: 12 | GPU0: 6,14,22,30 / 3 / N/A<br>GPU1: 4,12,20,28 / 1 / N/A<br>GPU2: 7,15,23,31 / 7 / N/A<br>GPU3: 5,13,21,29 / 5 / N/A
""")
  void readmeFacts(
      String file,
      int gpus,
      String nics,
      String legend,
      String pairClasses,
      String gpuNicCells,
      String affinity)
      throws Exception {
    SmiReport report = new NvidiaSmiReader().read(Fixtures.path("public/smi-topo/" + file));

    assertThat(report.unrecognized().count()).isZero();
    assertThat(report.malformed().count()).isZero();
    assertThat(report.matrices()).hasSize(1);
    assertThat(report.p2p()).isEmpty();
    TopoMatrix m = report.matrices().getFirst();
    assertThat(m.missingRows()).isEmpty();
    assertThat(m.gpus()).hasSize(gpus);
    assertThat(String.join(",", m.nics())).isEqualTo(dash(nics));
    assertThat(legend(m.nicLegend())).isEqualTo(dash(legend));
    assertThat(m.pairClassCounts()).isEqualTo(counts(pairClasses));
    assertThat(m.gpuNicClassCounts()).isEqualTo(counts(gpuNicCells));
    assertThat(affinity(m)).isEqualTo(affinity);
    assertThat(m.rows()).hasSize(gpus + m.nics().size());
  }

  /** NIC rows and columns agree, so nicAffinity reads the same from either side. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
001-oci-a100-8gpu-nv12-18nic-numa-3-1-7-5-crlf.txt | NIC0=mlx5_0 SYS GPU0,GPU1,GPU2,GPU3,GPU4,GPU5,GPU6,GPU7; NIC1=mlx5_1 PXB GPU2,GPU3; NIC5=mlx5_5 PXB GPU0,GPU1; NIC9=mlx5_9 PXB GPU6,GPU7; NIC13=mlx5_13 SYS GPU0,GPU1,GPU2,GPU3,GPU4,GPU5,GPU6,GPU7; NIC14=mlx5_14 PXB GPU4,GPU5
010-4x-v100-sxm2-nv1-nv2-4mlx5-old-legend-cpu-affinity-only.txt | mlx5_0=mlx5_0 PIX GPU0,GPU1; mlx5_1=mlx5_1 PIX GPU0,GPU1; mlx5_2=mlx5_2 PIX GPU2,GPU3; mlx5_3=mlx5_3 PIX GPU2,GPU3
011-4x-rtx6000ada-2socket-4nic-nic-legend.txt | NIC0=mlx5_0 NODE GPU0,GPU1; NIC1=mlx5_1 NODE GPU0,GPU1; NIC2=mlx5_2 NODE GPU2,GPU3; NIC3=mlx5_3 NODE GPU2,GPU3
014-amd-8x-a100-sxm-nv12-10nic-tab-numa-3-1-7-5.txt | NIC0=mlx5_0 PXB GPU0,GPU1; NIC3=mlx5_3 PXB GPU2,GPU3; NIC6=mlx5_6 PXB GPU6,GPU7; NIC8=mlx5_8 SYS GPU0,GPU1,GPU2,GPU3,GPU4,GPU5,GPU6,GPU7; NIC9=mlx5_9 SYS GPU0,GPU1,GPU2,GPU3,GPU4,GPU5,GPU6,GPU7
015-gooxi-8x-rtx4090-pcie-pix-5-plus-3-2socket-2nic.txt | NIC0=mlx5_0 NODE GPU5,GPU6,GPU7; NIC1=mlx5_1 NODE GPU5,GPU6,GPU7
016-gooxi-8x-rtx4090-pcie-pix-4-plus-4-one-socket-ibp-nic-names.txt | NIC0=ibp177s0f0 NODE GPU0,GPU1,GPU2,GPU3,GPU4,GPU5,GPU6,GPU7; NIC1=ibp177s0f1 NODE GPU0,GPU1,GPU2,GPU3,GPU4,GPU5,GPU6,GPU7
017-sglang-8x-h100-nv18-8nic-pix-one-per-gpu.txt | NIC0=mlx5_0 PIX GPU0; NIC3=mlx5_3 PIX GPU3; NIC4=mlx5_4 PIX GPU4; NIC7=mlx5_7 PIX GPU7
018-1x-a100-pcie-4nic-realigned-tabs-spaces.txt | NIC0=mlx5_0 SYS GPU0; NIC2=mlx5_2 NODE GPU0; NIC3=mlx5_3 NODE GPU0
020-4x-h100-nv6-4nic-pix-cpu-list-affinity-numa-3-1-7-5.txt | NIC0=NIC0 PIX GPU0; NIC1=NIC1 PIX GPU1; NIC2=NIC2 PIX GPU2; NIC3=NIC3 PIX GPU3
""")
  void nicAffinity(String file, String expected) throws Exception {
    TopoMatrix m =
        new NvidiaSmiReader().read(Fixtures.path("public/smi-topo/" + file)).matrix().orElseThrow();
    for (String part : expected.split("; ")) {
      String[] f = part.split(" ");
      String[] nic = f[0].split("=");
      NicAffinity a = m.nicAffinity().get(nic[0]);
      assertThat(a.device()).as(part).isEqualTo(nic[1]);
      assertThat(a.link().label()).as(part).isEqualTo(f[1]);
      assertThat(String.join(",", a.gpus())).as(part).isEqualTo(f[2]);
      assertThat(m.link(nic[1], a.gpus().getFirst())).as(part).isEqualTo(a.link());
    }
  }

  /** The 010 matrix link by link: V100 hybrid cube-mesh pairs are NV2, NV1 or NODE. */
  @ParameterizedTest(name = "{0}-{1} {2}")
  @CsvSource({
    "GPU0, GPU1, NV2",
    "GPU0, GPU2, NV1",
    "GPU0, GPU3, NODE",
    "GPU1, GPU2, NODE",
    "GPU1, GPU3, NV2",
    "GPU2, GPU3, NV2",
    "GPU3, GPU0, NODE",
    "GPU2, mlx5_3, PIX",
    "mlx5_0, mlx5_2, NODE",
    "GPU1, GPU1, X"
  })
  void v100Links(String a, String b, String label) throws Exception {
    TopoMatrix m =
        new NvidiaSmiReader()
            .read(
                Fixtures.path(
                    "public/smi-topo/010-4x-v100-sxm2-nv1-nv2-4mlx5-old-legend-cpu-affinity-only.txt"))
            .matrix()
            .orElseThrow();
    assertThat(m.link(a, b).label()).isEqualTo(label);
  }

  /** PCIe-only boxes link by link: GPUs behind one switch are PIX, across switches NODE or SYS. */
  @ParameterizedTest(name = "{0} {1}-{2} {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
015-gooxi-8x-rtx4090-pcie-pix-5-plus-3-2socket-2nic.txt | GPU0 | GPU4 | PIX
015-gooxi-8x-rtx4090-pcie-pix-5-plus-3-2socket-2nic.txt | GPU4 | GPU5 | SYS
015-gooxi-8x-rtx4090-pcie-pix-5-plus-3-2socket-2nic.txt | GPU7 | GPU5 | PIX
015-gooxi-8x-rtx4090-pcie-pix-5-plus-3-2socket-2nic.txt | mlx5_1 | GPU0 | SYS
016-gooxi-8x-rtx4090-pcie-pix-4-plus-4-one-socket-ibp-nic-names.txt | GPU3 | GPU4 | NODE
016-gooxi-8x-rtx4090-pcie-pix-4-plus-4-one-socket-ibp-nic-names.txt | ibp177s0f0 | ibp177s0f1 | PIX
018-1x-a100-pcie-4nic-realigned-tabs-spaces.txt | NIC1 | NIC0 | PIX
018-1x-a100-pcie-4nic-realigned-tabs-spaces.txt | NIC1 | NIC1 | X
020-4x-h100-nv6-4nic-pix-cpu-list-affinity-numa-3-1-7-5.txt | GPU2 | NIC2 | PIX
020-4x-h100-nv6-4nic-pix-cpu-list-affinity-numa-3-1-7-5.txt | NIC3 | GPU0 | SYS
""")
  void moreLinks(String file, String a, String b, String label) throws Exception {
    TopoMatrix m =
        new NvidiaSmiReader().read(Fixtures.path("public/smi-topo/" + file)).matrix().orElseThrow();
    assertThat(m.link(a, b).label()).isEqualTo(label);
  }

  /**
   * 019: two RTX 2080 Ti behind one switch (PIX) whose P2P "prop" capability is NS: both the matrix
   * and the P2P block are read, the mode from the command line before it.
   */
  @Test
  void pixPairWithoutP2p() throws Exception {
    SmiReport r =
        new NvidiaSmiReader()
            .read(
                Fixtures.path(
                    "public/smi-topo/019-autodl-2x-rtx2080ti-pix-container-and-p2p-p-ns.txt"));
    assertThat(r.unrecognized().count()).isZero();
    assertThat(r.malformed().count()).isZero();
    assertThat(r.matrices()).hasSize(1);
    TopoMatrix m = r.matrices().getFirst();
    assertThat(m.pairClassCounts()).isEqualTo(counts("PIX: 1"));
    assertThat(m.nics()).isEmpty();
    assertThat(affinity(m)).isEqualTo("GPU0,GPU1: 24-47,72-95 / 1 / N/A");
    assertThat(r.p2p()).hasSize(1);
    P2pMatrix p = r.p2p().getFirst();
    assertThat(p.mode()).isEqualTo(P2pMode.PROP);
    assertThat(p.modeEvidence().line()).isEqualTo(16);
    assertThat(p.gpus()).containsExactly("GPU0", "GPU1");
    assertThat(p.statusCounts()).isEqualTo(Map.of(P2pStatus.NS, 1));
    assertThat(p.status("GPU1", "GPU0")).isEqualTo(P2pStatus.NS);
    assertThat(p.missingRows()).isEmpty();
  }

  /**
   * 022: GB200 rows with NUMA Affinity as a list of nodes and a numeric GPU NUMA ID; the excerpt
   * stops after GPU2, so GPU3 and the NIC rows are missing, never invented.
   */
  @Test
  void gb200ExcerptWithNumaLists() throws Exception {
    SmiReport r =
        new NvidiaSmiReader()
            .read(
                Fixtures.path(
                    "public/smi-topo/022-gb200-4gpu-nv18-6nic-numa-affinity-lists-excerpt.txt"));
    assertThat(r.unrecognized().count()).isZero();
    assertThat(r.malformed().count()).isZero();
    TopoMatrix m = r.matrix().orElseThrow();
    assertThat(m.gpus()).containsExactly("GPU0", "GPU1", "GPU2", "GPU3");
    assertThat(m.nics()).containsExactly("NIC0", "NIC1", "NIC2", "NIC3", "NIC4", "NIC5");
    assertThat(m.missingRows())
        .containsExactly("GPU3", "NIC0", "NIC1", "NIC2", "NIC3", "NIC4", "NIC5");
    assertThat(m.pairClassCounts()).isEqualTo(counts("NV18: 6"));
    assertThat(m.gpuNicClassCounts()).isEqualTo(counts("SYS: 18"));
    assertThat(m.link("GPU3", "NIC0")).isNull();
    assertThat(m.affinity()).containsOnlyKeys("GPU0", "GPU1", "GPU2");
    assertThat(m.affinity().get("GPU1").cpuAffinity()).isEqualTo("0-71");
    assertThat(m.affinity().get("GPU1").numaAffinity()).isEqualTo("0,3-9,11-17");
    assertThat(m.affinity().get("GPU1").gpuNumaId()).isEqualTo("10");
    assertThat(m.affinity().get("GPU2").numaAffinity()).isEqualTo("1,19-25,27-33");
    assertThat(m.affinity().get("GPU2").gpuNumaId()).isEqualTo("18");
  }

  /** 021: an nvlink -s block whose UUID the reporter hid; links 3 and 5 are inactive. */
  @Test
  void nvlinkStatusWithInactiveLinksAndHiddenUuid() throws Exception {
    SmiReport r =
        new NvidiaSmiReader()
            .read(
                Fixtures.path(
                    "public/smi-topo/021-v100-nvlink-s-two-inactive-links-uuid-redacted.txt"));
    assertThat(r.unrecognized().count()).isEqualTo(1);
    assertThat(r.unrecognized().samples().getFirst().text()).isEqualTo("....");
    assertThat(r.matrices()).isEmpty();
    assertThat(r.gpus()).hasSize(1);
    SmiGpu g = r.gpus().getFirst();
    assertThat(g.index()).isEqualTo(3);
    assertThat(g.name()).isEqualTo("Tesla V100-SXM2-32GB");
    assertThat(g.uuid()).isNull();
    assertThat(r.nvlinks()).hasSize(1);
    NvlinkStatus s = r.nvlinks().getFirst();
    assertThat(s.gpu()).isEqualTo(3);
    assertThat(s.links()).extracting(NvlinkSpeed::link).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(s.links())
        .extracting(NvlinkSpeed::text)
        .containsExactly(
            "25.781 GB/s", "25.781 GB/s", "25.781 GB/s", "<inactive>", "25.781 GB/s", "<inactive>");
    assertThat(s.active()).extracting(NvlinkSpeed::link).containsExactly(0, 1, 2, 4);
    assertThat(s.totalGbps()).isCloseTo(103.124, offset(1e-9));
    assertThat(s.evidence().line()).isEqualTo(3);
    assertThat(
            NvidiaSmiReader.looksLike(
                Files.readString(
                    Fixtures.path(
                        "public/smi-topo/021-v100-nvlink-s-two-inactive-links-uuid-redacted.txt"))))
        .isTrue();
  }

  static String dash(String s) {
    return s.equals("-") ? "" : s;
  }

  static String legend(Map<String, String> legend) {
    return legend.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(","));
  }

  /** "NV2: 3; NODE: 2" (or "-") as a map. */
  static Map<String, Integer> counts(String text) {
    Map<String, Integer> out = new LinkedHashMap<>();
    if (!text.equals("-")) {
      for (String part : text.split("; ")) {
        String[] kv = part.split(": ");
        out.put(kv[0], Integer.parseInt(kv[1]));
      }
    }
    return out;
  }

  /** The README's per-GPU column: GPUs with equal values grouped, "N/A" or "(no col)". */
  static String affinity(TopoMatrix m) {
    Map<String, List<String>> groups = new LinkedHashMap<>();
    for (String gpu : m.gpus()) {
      GpuAffinity a = m.affinity().get(gpu);
      String value =
          String.join(
              " / ",
              value(m, TopoMatrix.CPU_AFFINITY, a.cpuAffinity()),
              value(m, TopoMatrix.NUMA_AFFINITY, a.numaAffinity()),
              value(m, TopoMatrix.GPU_NUMA_ID, a.gpuNumaId()));
      groups.computeIfAbsent(value, k -> new ArrayList<>()).add(gpu);
    }
    List<String> parts = new ArrayList<>();
    groups.forEach((v, g) -> parts.add(String.join(",", g) + ": " + v));
    return String.join("<br>", parts);
  }

  private static String value(TopoMatrix m, String column, String v) {
    if (!m.hasColumn(column)) {
      return "(no col)";
    }
    return v == null ? "N/A" : v;
  }
}
