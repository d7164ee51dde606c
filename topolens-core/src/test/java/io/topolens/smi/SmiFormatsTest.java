package io.topolens.smi;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Format variants on real outputs: ANSI escapes as nvidia-smi prints them (the {@code cat -A}
 * capture and the same bytes decoded), a public P2P capture with prose between the blocks, and
 * malformed rows made by damaging one row of a real matrix: they are counted and left out, never
 * guessed.
 */
class SmiFormatsTest {
  private static final String ESCAPES = "fixtures/h200x4/verbose/topo-m-raw-escapes.txt";
  private static final String L40S = "public/smi-topo/004-aws-g6e-12xlarge-4x-l40s-node.txt";

  @Test
  void catDashANotationIsDecoded() throws Exception {
    SmiReport r = new NvidiaSmiReader().read(Fixtures.path(ESCAPES));
    assertEscapeCapture(r);
  }

  @Test
  void realAnsiEscapesAreStripped() throws IOException {
    String catA = Files.readString(Fixtures.path(ESCAPES), StandardCharsets.UTF_8);
    String raw =
        catA.replace("$\n", "\n").replace("^I", "\t").replace("^[", String.valueOf((char) 0x1b));
    assertThat(raw).contains("\u001b[4mGPU0\tGPU1").doesNotContain("^I");
    SmiReport r = new NvidiaSmiReader().read("raw-escapes", raw);
    assertEscapeCapture(r);
    assertThat(r.matrices().getFirst().header().text())
        .isEqualTo("\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID");
  }

  /** head -3 of the matrix: the header and two rows; GPU2 and GPU3 are missing, not invented. */
  private static void assertEscapeCapture(SmiReport r) {
    assertThat(r.unrecognized().count()).isZero();
    assertThat(r.malformed().count()).isZero();
    TopoMatrix m = r.matrices().getFirst();
    assertThat(m.gpus()).containsExactly("GPU0", "GPU1", "GPU2", "GPU3");
    assertThat(m.missingRows()).containsExactly("GPU2", "GPU3");
    assertThat(m.affinity()).containsOnlyKeys("GPU0", "GPU1");
    assertThat(m.link("GPU0", "GPU3").label()).isEqualTo("NV18");
    assertThat(m.link("GPU3", "GPU0").label()).isEqualTo("NV18");
    assertThat(m.link("GPU2", "GPU3")).isNull();
    assertThat(m.pairClassCounts()).isEqualTo(Map.of("NV18", 5));
  }

  @Test
  void publicP2pCaptureWithProse() throws Exception {
    SmiReport r =
        new NvidiaSmiReader()
            .read(
                Fixtures.path(
                    "public/smi-topo/013-8x-h100-p2p-r-ok-and-2x-l4-p2p-r-cns-with-prose.txt"));
    assertThat(r.matrices()).isEmpty();
    assertThat(r.p2p()).hasSize(2);
    P2pMatrix h100 = r.p2p().get(0);
    P2pMatrix l4 = r.p2p().get(1);
    assertThat(h100.mode()).isEqualTo(P2pMode.READ);
    assertThat(h100.gpus()).hasSize(8);
    assertThat(h100.statusCounts()).isEqualTo(Map.of(P2pStatus.OK, 28));
    assertThat(h100.notOk()).isEmpty();
    assertThat(l4.mode()).isEqualTo(P2pMode.READ);
    assertThat(l4.modeEvidence().line()).isEqualTo(26);
    assertThat(l4.statusCounts()).isEqualTo(Map.of(P2pStatus.CNS, 1));
    assertThat(l4.status("GPU1", "GPU0")).isEqualTo(P2pStatus.CNS);
    assertThat(r.unrecognized().count()).isEqualTo(1);
    assertThat(r.unrecognized().samples().getFirst().line()).isEqualTo(24);
    assertThat(r.malformed().count()).isZero();
  }

  /** One row of the real L40S matrix damaged: the row is counted as malformed and left out. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
"""
one cell missing     | GPU2    NODE    NODE     X      NODE    0-47    0               N/A | GPU2    NODE     X      NODE    0-47    0               N/A | 2 values after the 4 cells, 3 expected
unknown cell         | GPU2    NODE    NODE     X      NODE    0-47    0               N/A | GPU2    NODE    NVX     X      NODE    0-47    0               N/A | unknown cell 'NVX'
X off the diagonal   | GPU2    NODE    NODE     X      NODE    0-47    0               N/A | GPU2    NODE     X     NODE    NODE    0-47    0               N/A | X off the diagonal
affinity cut short   | GPU2    NODE    NODE     X      NODE    0-47    0               N/A | GPU2    NODE    NODE     X      NODE    0-47    0 | 2 values after the 4 cells, 3 expected
""")
  void malformedRow(String what, String row, String damaged, String why) throws IOException {
    String text = Files.readString(Fixtures.path(L40S));
    assertThat(text).contains(row);
    SmiReport r = new NvidiaSmiReader().read("l40s-damaged", text.replace(row, damaged));
    assertThat(r.malformed().count()).isEqualTo(1);
    assertThat(r.malformed().samples().getFirst().line()).isEqualTo(5);
    assertThat(r.malformed().samples().getFirst().text()).endsWith("[" + why + "]");
    TopoMatrix m = r.matrices().getFirst();
    assertThat(m.missingRows()).containsExactly("GPU2");
    assertThat(m.affinity()).doesNotContainKey("GPU2");
    assertThat(m.link("GPU2", "GPU3").label()).isEqualTo("NODE");
    assertThat(m.pairClassCounts()).isEqualTo(Map.of("NODE", 6));
  }

  /** A legend line with a code nvidia-smi does not document is reported, not swallowed. */
  @Test
  void unknownLegendCodeIsUnrecognised() throws IOException {
    String text = Files.readString(Fixtures.path(L40S));
    String line = "  NV#  = Connection traversing a bonded set of # NVLinks";
    assertThat(text).contains(line);
    SmiReport r =
        new NvidiaSmiReader()
            .read("l40s-legend", text.replace(line, line + "\n  C2Q  = Something new"));
    assertThat(r.unrecognized().count()).isEqualTo(1);
    assertThat(r.unrecognized().samples().getFirst().text()).isEqualTo("  C2Q  = Something new");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "fixtures/h200x4/smi.txt, true",
    "fixtures/h200x4/verbose/topo-m-raw-escapes.txt, true",
    "public/smi-topo/001-oci-a100-8gpu-nv12-18nic-numa-3-1-7-5-crlf.txt, true",
    "public/smi-topo/007-2gpu-nv2-numa-affinity-na-old-driver.txt, true",
    "public/smi-topo/010-4x-v100-sxm2-nv1-nv2-4mlx5-old-legend-cpu-affinity-only.txt, true",
    "public/smi-topo/013-8x-h100-p2p-r-ok-and-2x-l4-p2p-r-cns-with-prose.txt, true",
    "fixtures/h200x4/ar-p2p.log, false",
    "fixtures/h200x4/topo.xml, false",
    "fixtures/h200x4/graph.xml, false",
    "fixtures/h200x4/ar-p2p.json, false",
    "nccl/public/012-nccl2x-init-complete-init-timings-single-process-8gpu.log, false",
    "public/nccl-tests/014-multi-collective-v2.17.8-80r-10node-h100-na-inplace.txt, false"
  })
  void looksLike(String resource, boolean expected) throws IOException {
    assertThat(NvidiaSmiReader.looksLike(head(Fixtures.path(resource)))).isEqualTo(expected);
  }

  static String head(Path p) throws IOException {
    byte[] b = Files.readAllBytes(p);
    return new String(b, 0, Math.min(b.length, 1024), StandardCharsets.UTF_8);
  }
}
