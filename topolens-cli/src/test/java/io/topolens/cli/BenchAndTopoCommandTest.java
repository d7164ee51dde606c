package io.topolens.cli;

import static io.topolens.cli.CliRun.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code topolens bench} and {@code topolens topo} end to end on the real H200 and public files.
 */
class BenchAndTopoCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String H200 = "fixtures/h200x4/";

  @TempDir Path tmp;

  @ParameterizedTest
  @CsvSource({
    "ar-p2p.log, 0, healthy, 362.84, nvlink",
    "ar-shm.log, 1, slower-path, 30.8, shm",
    "ar-sock.log, 1, slower-path, 3.85, tcp",
  })
  void benchJudgesH200Runs(String file, int code, String grade, double peak, String ranOn)
      throws IOException {
    CliRun r =
        CliRun.of("bench", "--format", "json", fixture(H200 + file), fixture(H200 + "smi.txt"));

    assertThat(r.code()).as(r.err()).isEqualTo(code);
    JsonNode v = JSON.readTree(r.out()).get("runs").get(0).get("verdict");
    assertThat(v.get("grade").asText()).isEqualTo(grade);
    assertThat(v.get("peakBusBw").asDouble()).isEqualTo(peak);
    assertThat(v.get("ranOn").asText()).isEqualTo(ranOn);
    assertThat(v.get("offered").asText()).isEqualTo("nvlink");
    assertThat(v.get("sources")).isNotEmpty();
  }

  @Test
  void jsonOutputOfNcclTestsIsReadLikeItsText() throws IOException {
    CliRun r = CliRun.of("bench", "--format", "json", fixture(H200 + "ar-p2p.json"));

    assertThat(r.code()).as(r.err()).isZero();
    JsonNode run = JSON.readTree(r.out()).get("runs").get(0);
    assertThat(run.get("collective").asText()).isEqualTo("all_reduce_perf");
    assertThat(run.get("rows")).hasSize(6);
    assertThat(run.get("verdict").get("grade").asText()).isEqualTo("healthy");
  }

  @Test
  void twoRunsSideBySide() {
    CliRun r =
        CliRun.of("bench", "--summary", fixture(H200 + "ar-p2p.log"), fixture(H200 + "ar-shm.log"));

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("Side by side").contains("B/A");
    assertThat(r.out().lines().filter(l -> l.strip().startsWith("2 GiB")))
        .singleElement()
        .satisfies(l -> assertThat(l.split("\\s+")).contains("0.07x"));
  }

  @Test
  void instanceOptionJudgesTwoP5Nodes() throws IOException {
    CliRun r =
        CliRun.of(
            "bench",
            "--format",
            "json",
            "--instance",
            "p5.48xlarge",
            fixture("public/nccl-tests/003-all-reduce-2x-p5-mpirun-tag-prefix-indented.txt"));

    JsonNode v = JSON.readTree(r.out()).get("runs").get(0).get("verdict");
    assertThat(v.get("judgedOn").asText()).isEqualTo("efa");
    assertThat(v.get("expectedGBps").asDouble()).isEqualTo(400.0);
    assertThat(v.get("peakBusBw").asDouble()).isEqualTo(437.79);
    assertThat(v.get("grade").asText()).isEqualTo("healthy");
    assertThat(v.get("sentence").asText()).contains("above the link rate");
  }

  @ParameterizedTest
  @CsvSource({
    // file, instance or -, ranOn or -, grade, sentence has
    "001-scatter-perf-2x-p4d-a100-16r-srun-l-nccl-info-efa.txt, p4d.24xlarge, efa, unjudged, this collective's busbw has another bound",
    "016-all-reduce-gcp-a3mega-16r-2node.txt, -, -, unjudged, The network between nodes is unknown",
    "004-all-reduce-2x-p4de-srun-prefix-no-summary.txt, p4de.24xlarge, -, healthy, 157% of 4 EFA on p4de.24xlarge",
  })
  void publicMultiNodeRuns(String file, String instance, String ranOn, String grade, String has)
      throws IOException {
    String path = fixture("public/nccl-tests/" + file);
    CliRun r =
        instance.equals("-")
            ? CliRun.of("bench", "--format", "json", path)
            : CliRun.of("bench", "--format", "json", "--instance", instance, path);
    JsonNode v = JSON.readTree(r.out()).get("runs").get(0).get("verdict");
    assertThat(v.get("ranOn").isNull() ? "-" : v.get("ranOn").asText()).isEqualTo(ranOn);
    assertThat(v.get("grade").asText()).isEqualTo(grade);
    assertThat(v.get("sentence").asText()).contains(has);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "bench | --instance | p9.huge | --instance p9.huge: not in the catalog",
        "bench | --gpu | Z80 | --gpu Z80: not in the catalog",
        "topo | --gpu | Z80 | --gpu Z80: not in the catalog",
      })
  void unknownHardwareIsUsageError(String cmd, String opt, String value, String message) {
    CliRun r = CliRun.of(cmd, opt, value, fixture(H200 + "smi.txt"));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().contains(message);
  }

  @Test
  void benchOnAFileWithoutATableIsExit2() throws IOException {
    Path f = tmp.resolve("notes.txt");
    Files.writeString(f, "nothing here\n");
    CliRun r = CliRun.of("bench", f.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("notes.txt").doesNotContain("Exception");
  }

  @Test
  void standardInputIsToldByContentToo() throws IOException {
    java.io.InputStream old = System.in;
    try {
      System.setIn(Files.newInputStream(Path.of(fixture(H200 + "ar-sock.log"))));
      CliRun r = CliRun.of("bench", "--format", "json", "-");
      JsonNode v = JSON.readTree(r.out()).get("runs").get(0);
      assertThat(v.get("file").asText()).isEqualTo("<stdin>");
      assertThat(v.get("verdict").get("ranOn").asText()).isEqualTo("tcp");
      assertThat(v.get("verdict").get("grade").asText()).isEqualTo("slower-path");
    } finally {
      System.setIn(old);
    }
  }

  @Test
  void topoOnALogIsExit2() {
    CliRun r = CliRun.of("topo", fixture(H200 + "ar-p2p.log"));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().contains("not a topology file");
  }

  @Test
  void brokenXmlIsOneLineExit2() throws IOException {
    Path f = tmp.resolve("topo.xml");
    Files.writeString(f, "<system version=\"1\">\n  <cpu numaid=\"0\">\n");
    CliRun r = CliRun.of("topo", f.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().startsWith("topolens: " + f);
  }

  @Test
  void topoShowsPairsAndRates() throws IOException {
    CliRun r = CliRun.of("topo", fixture(H200 + "smi.txt"));
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains(
            "NV18 (6 pairs): GPU0-GPU1, GPU0-GPU2, GPU0-GPU3, GPU1-GPU2, GPU1-GPU3, GPU2-GPU3")
        .contains("18 links x 25 GB/s = 450 GB/s per direction (catalog: NVIDIA H200)");

    CliRun j =
        CliRun.of(
            "topo",
            "--format",
            "json",
            fixture(
                "public/smi-topo/010-4x-v100-sxm2-nv1-nv2-4mlx5-old-legend-cpu-affinity-only.txt"));
    JsonNode m = JSON.readTree(j.out()).get("smi").get(0).get("matrices").get(0);
    assertThat(m.get("pairClassCounts").toString()).isEqualTo("{\"NV2\":3,\"NV1\":1,\"NODE\":2}");
    assertThat(m.get("nics")).hasSize(4);
  }

  /** nvlink -s alone is topology too: active links, their sum, the inactive ones. */
  @Test
  void topoShowsInactiveNvlinks() throws IOException {
    String f = fixture("public/smi-topo/021-v100-nvlink-s-two-inactive-links-uuid-redacted.txt");
    CliRun r = CliRun.of("topo", f);
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("  GPU3: Tesla V100-SXM2-32GB\n")
        .contains("  nvlink -s GPU3: 4 of 6 links active, 103.12 GB/s; inactive: 3, 5");
    JsonNode n =
        JSON.readTree(CliRun.of("topo", "--format", "json", f).out())
            .get("smi")
            .get(0)
            .get("nvlinks")
            .get(0);
    assertThat(n.toString())
        .isEqualTo("{\"gpu\":3,\"links\":6,\"active\":4,\"totalGbps\":103.124,\"inactive\":[3,5]}");
  }

  /** A failed run is nccl-tests output: exit 0, aborted at the failure line, nothing judged. */
  @Test
  void benchOnARunThatFailedBeforeItsTable() throws IOException {
    CliRun r =
        CliRun.of(
            "bench",
            fixture(
                "public/nccl-tests/035-failed-before-table-cuda-system-not-initialized-h20-mpirun.txt"));
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains(": unknown collective, 0 ranks")
        .contains(":2: gpu: Test CUDA failure common.cu:1030 'system not yet initialized'")
        .contains("verdict [unjudged]: No row of nccl-tests completed; nothing to judge.");
  }

  @ParameterizedTest
  @CsvSource({
    "topo, binary, binary data",
    "topo, empty, empty file",
    "topo, emptydir, no topology found in",
    "bench, binary, binary data",
    "bench, empty, empty file",
    "bench, emptydir, no nccl-tests output among",
    "diagnose, binary, binary data",
    "diagnose, emptydir, no files to read in",
  })
  void unreadableInputIsOneLineAndExit2(String cmd, String what, String message)
      throws IOException {
    Path p =
        switch (what) {
          case "binary" -> {
            byte[] b = new byte[4096];
            new java.util.Random(7).nextBytes(b);
            yield Files.write(tmp.resolve("x.bin"), b);
          }
          case "empty" -> Files.writeString(tmp.resolve("empty.txt"), "");
          default -> Files.createDirectories(tmp.resolve("nothing"));
        };
    CliRun r = CliRun.of(cmd, p.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .singleElement()
        .asString()
        .contains(message)
        .doesNotContain("Exception");
  }
}
