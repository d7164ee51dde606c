package io.topolens.diagnose.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.diagnose.Diagnoser;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.inputs.Inputs;
import io.topolens.inputs.InputsReader;
import io.topolens.nccl.NcclLogReader;
import io.topolens.verdict.BenchAnalysis;
import io.topolens.verdict.Expectations;
import io.topolens.verdict.Hardware;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rules that need inputs beside the logs (nvlink-unused, nic-far-from-gpu, p2p-not-supported,
 * busbw-below-expected), on real files: the H200 logs and nccl-tests runs with their topology, and
 * public topo -m matrices. Each row: the inputs, then the findings of these four rules exactly.
 */
class TopologyRulesTest {
  private static final List<String> IDS =
      List.of("nvlink-unused", "nic-far-from-gpu", "p2p-not-supported", "busbw-below-expected");

  static List<String> findings(String... resources) {
    List<String> paths = Arrays.stream(resources).map(r -> Fixtures.path(r).toString()).toList();
    NcclLogReader reader = new NcclLogReader(2);
    Inputs in = new InputsReader(reader).read(paths);
    Expectations expect = new Expectations(HardwareCatalog.builtIn());
    Observed o =
        new Observed(
            in.job(),
            in.smi(),
            in.topologies(),
            BenchAnalysis.topology(in),
            new BenchAnalysis(expect).judge(in, Hardware.unknown()));
    return Diagnoser.standard().diagnose(o).findings().stream()
        .filter(f -> IDS.contains(f.id()))
        .map(TopologyRulesTest::label)
        .toList();
  }

  private static String label(Finding f) {
    return f.id() + ":" + f.severity().label();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // inputs (comma-separated) | expected findings of the four rules (space-separated), or -
        "h200x4/ar-p2p.log,h200x4/smi.txt | -",
        "h200x4/fsdp/p2p.log,h200x4/smi.txt,h200x4/topo.xml | -",
        "h200x4/ar-shm.log,h200x4/smi.txt | nvlink-unused:error busbw-below-expected:error",
        "h200x4/ar-sock.log,h200x4/topo.xml | nvlink-unused:error busbw-below-expected:error",
        "h200x4/fsdp/shm.log,h200x4/smi.txt | nvlink-unused:error",
        "h200x4/fsdp/sock.log | -",
        "h200x4/ar-shm.log | busbw-below-expected:error",
        "h200x4/ar-tree.log | busbw-below-expected:warn",
        "public/smi-topo/011-4x-rtx6000ada-2socket-4nic-nic-legend.txt | -",
        "public/smi-topo/001-oci-a100-8gpu-nv12-18nic-numa-3-1-7-5-crlf.txt | -",
        "public/smi-topo/013-8x-h100-p2p-r-ok-and-2x-l4-p2p-r-cns-with-prose.txt | p2p-not-supported:warn",
      })
  void findingsOnRealInputs(String inputs, String expected) {
    String[] resources =
        Arrays.stream(inputs.split(","))
            .map(s -> s.startsWith("public/") ? s : "fixtures/" + s)
            .toArray(String[]::new);
    List<String> want = expected.equals("-") ? List.of() : List.of(expected.split(" "));
    assertThat(findings(resources)).containsExactlyInAnyOrderElementsOf(want);
  }

  /** nvlink-unused quotes the measured rates of measurements.json with their source. */
  @Test
  void nvlinkUnusedQuotesTheMeasurements() {
    Inputs in =
        new InputsReader(new NcclLogReader(1))
            .read(
                List.of(
                    Fixtures.path("fixtures/h200x4/ar-shm.log").toString(),
                    Fixtures.path("fixtures/h200x4/smi.txt").toString()));
    Observed o =
        new Observed(in.job(), in.smi(), in.topologies(), BenchAnalysis.topology(in), List.of());
    assertThat(new NvlinkUnused().check(o))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.explanation())
                    .contains(
                        "On 4 x H200 the same all_reduce ran at 362.84 GB/s over NVLink, 25.26 GB/s over"
                            + " SHM and 3.85 GB/s over sockets (measured 2026-11-21 with nccl-tests 2.19.6 /"
                            + " NCCL 2.28.9 (topolens fixtures h200x4/ar-p2p.log))."));
  }

  @Test
  void gpusWithOnlyFarNicsAreNamed() throws Exception {
    // a real 2-socket matrix (public 011) with the NICs of socket 1 removed: GPU2 and GPU3 keep
    // only SYS NICs, GPU0 and GPU1 keep their near ones
    String text =
        java.nio.file.Files.readString(
            Fixtures.path("public/smi-topo/011-4x-rtx6000ada-2socket-4nic-nic-legend.txt"));
    List<String> lines = text.lines().toList();
    java.nio.file.Path tmp = java.nio.file.Files.createTempFile("topo", ".txt");
    try {
      java.nio.file.Files.writeString(tmp, String.join("\n", cutNics(lines, 2, 3)) + "\n");
      NcclLogReader reader = new NcclLogReader(1);
      Inputs in = new InputsReader(reader).read(List.of(tmp.toString()));
      Observed o = new Observed(in.job(), in.smi(), in.topologies(), null, List.of());
      List<Finding> fs = new NicFarFromGpu().check(o);
      assertThat(fs)
          .singleElement()
          .satisfies(
              f -> {
                assertThat(f.severity()).isEqualTo(Severity.WARN);
                assertThat(f.explanation())
                    .isEqualTo(
                        "GPU2, GPU3 reach their nearest NIC only across the CPU sockets (SYS in "
                            + tmp
                            + "): inter-node traffic from these GPUs crosses QPI/UPI/Infinity Fabric, and"
                            + " NCCL will not use GPUDirect RDMA across SYS by default (NCCL_NET_GDR_LEVEL),"
                            + " staging through host memory instead. Ranks on these GPUs set the pace of"
                            + " every ring that leaves the node.");
              });
    } finally {
      java.nio.file.Files.deleteIfExists(tmp);
    }
  }

  /**
   * Drops NIC columns and rows {@code a} and {@code b} (NICa, NICb) from this excerpt, whose cells
   * sit on 8-character tab stops (header and rows alike): column k occupies [8 + 8k, 16 + 8k).
   */
  private static List<String> cutNics(List<String> lines, int a, int b) {
    List<String> out = new java.util.ArrayList<>();
    boolean inMatrix = false;
    for (String l : lines) {
      if (l.startsWith("        GPU0")) {
        inMatrix = true;
      } else if (l.isBlank()) {
        inMatrix = false;
      }
      if (l.startsWith("NIC" + a)
          || l.startsWith("NIC" + b)
          || l.strip().startsWith("NIC" + a + ":")
          || l.strip().startsWith("NIC" + b + ":")) {
        continue;
      }
      if (inMatrix) {
        int from = 8 + 8 * (4 + Math.min(a, b));
        int to = 16 + 8 * (4 + Math.max(a, b));
        l = l.length() <= from ? l : l.substring(0, from) + l.substring(Math.min(to, l.length()));
      }
      out.add(l);
    }
    return out;
  }
}
