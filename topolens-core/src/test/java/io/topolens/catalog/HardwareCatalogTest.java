package io.topolens.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HardwareCatalogTest {
  private final HardwareCatalog catalog = HardwareCatalog.builtIn();

  @ParameterizedTest
  @CsvSource({
    "NVIDIA H200, h200",
    "NVIDIA A100-SXM4-40GB, a100-sxm4-40gb",
    "NVIDIA A100-SXM4-80GB, a100-sxm4",
    "NVIDIA A100-PCIE-40GB, a100-pcie",
    "NVIDIA H100 80GB HBM3, h100-sxm",
    "NVIDIA H100 PCIe, h100-pcie",
    "NVIDIA GH200 120GB, gh200",
    "NVIDIA L40S, l40s",
    "NVIDIA L4, l4",
    "NVIDIA A10G, a10g",
    "Tesla V100-SXM2-16GB, v100-sxm2",
    "NVIDIA B200, b200",
  })
  void gpuNamesAsToolsPrintThem(String printed, String id) {
    assertThat(catalog.gpuByName(printed)).map(GpuSpec::id).contains(id);
  }

  @ParameterizedTest
  @CsvSource({"NVIDIA RTX 6000 Ada Generation", "Quadro P4000", "''"})
  void unknownGpusAreNotGuessed(String printed) {
    assertThat(catalog.gpuByName(printed)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    // type, gpu, gpus, nvswitch, efa, Gbps, gdr
    "p4d.24xlarge, a100-sxm4-40gb, 8, true, 4, 400, true",
    "p4de.24xlarge, a100-sxm4, 8, true, 4, 400, true",
    "p5.48xlarge, h100-sxm, 8, true, 32, 3200, true",
    "p5e.48xlarge, h200, 8, true, 32, 3200, true",
    "p5en.48xlarge, h200, 8, true, 16, 3200, true",
    "g5.48xlarge, a10g, 8, false, 1, 100, false",
    "g6e.8xlarge, l40s, 1, false, 1, 25, false",
    "g6e.12xlarge, l40s, 4, false, 1, 100, false",
    "g6e.24xlarge, l40s, 4, false, 2, 200, false",
    "g6e.48xlarge, l40s, 8, false, 4, 400, false",
    "g6.12xlarge, l4, 4, false, 1, 40, false",
    "g6.48xlarge, l4, 8, false, 1, 100, false",
    "p6-b200.48xlarge, b200, 8, true, 8, 3200, true",
  })
  void instanceTypes(
      String type, String gpu, int gpus, boolean nvswitch, int efa, double gbps, boolean gdr) {
    InstanceSpec i = catalog.instance(type).orElseThrow();
    assertThat(i.gpu()).isEqualTo(gpu);
    assertThat(i.gpus()).isEqualTo(gpus);
    assertThat(i.nvswitch()).isEqualTo(nvswitch);
    assertThat(i.efa()).isEqualTo(efa);
    assertThat(i.efaGbps()).isEqualTo(gbps);
    assertThat(i.gpuDirectRdma()).isEqualTo(gdr);
    assertThat(catalog.sources(i.sources())).isNotEmpty();
  }

  @Test
  void everyNumberHasASourceWithAnAddress() {
    for (GpuSpec g : catalog.gpus()) {
      assertThat(g.sources()).as(g.id()).isNotEmpty();
      catalog
          .sources(g.sources())
          .forEach(
              s -> assertThat(s.url()).as(s.key()).matches("https://\\S+|this repository: \\S+"));
    }
    for (InstanceSpec i : catalog.instances()) {
      catalog
          .sources(i.sources())
          .forEach(
              s -> assertThat(s.url()).as(s.key()).matches("https://\\S+|this repository: \\S+"));
    }
    for (PathSpec p : catalog.paths()) {
      assertThat(p.sources()).as(p.id()).isNotEmpty();
    }
    assertThat(catalog.paths())
        .extracting(PathSpec::id)
        .containsExactly("nvlink", "pcie", "shm", "efa", "ib", "tcp");
  }

  /**
   * The numbers the seeds' runs touch, each against the words of the source the catalog cites for
   * it (test resource catalog/seed-facts.txt, copied from the pages its README names).
   */
  @Test
  void theSeedsNumbersAreTheirSourcesNumbers() throws Exception {
    List<String> lines =
        Files.readAllLines(io.topolens.Fixtures.path("catalog/seed-facts.txt")).stream()
            .filter(l -> !l.isBlank() && !l.startsWith("#"))
            .toList();
    assertThat(lines).hasSizeGreaterThan(10);
    for (String line : lines) {
      String[] f = line.split(" \\| ", 5);
      Record entry =
          catalog.gpu(f[0]).map(g -> (Record) g).or(() -> catalog.instance(f[0])).orElseThrow();
      Object value = null;
      for (var c : entry.getClass().getRecordComponents()) {
        if (c.getName().equals(f[1])) {
          value = c.getAccessor().invoke(entry);
        }
      }
      assertThat(value).as(line).isNotNull();
      if (value instanceof Number n) {
        assertThat(n.doubleValue()).as(line).isEqualTo(Double.parseDouble(f[2]));
      } else {
        assertThat(String.valueOf(value)).as(line).isEqualTo(f[2]);
      }
      List<String> cited =
          entry instanceof GpuSpec g ? g.sources() : ((InstanceSpec) entry).sources();
      assertThat(cited).as(line).contains(f[3]);
      String stated =
          switch (f[2]) {
            case "true" -> "GPUDirect RDMA";
            case "false" -> "**No**";
            case "a100-sxm4-40gb" -> "40 (GB)";
            default -> f[2];
          };
      assertThat(f[4]).as(line).contains(stated);
    }
  }

  @Test
  void overrideFileReplacesAndAdds(@TempDir Path dir) throws IOException, InputProblem {
    Path f = dir.resolve("mine.json");
    Files.writeString(
        f,
        """
        {"sources": {"MINE": {"title": "our lab", "url": "https://example.org/lab"}},
         "instances": [
           {"type": "g6e.12xlarge", "gpu": "l40s", "gpus": 4, "nvswitch": false, "efa": 1,
            "efaGbps": 100, "gpuDirectRdma": false, "vcpus": 48, "memoryGiB": 168,
            "sources": ["MINE"]},
           {"type": "lab.box", "gpu": "h200", "gpus": 4, "nvswitch": true, "efa": 0,
            "efaGbps": 10, "gpuDirectRdma": false, "vcpus": 64, "memoryGiB": 512,
            "sources": ["MINE", "H200X4"]}]}
        """);
    HardwareCatalog mine = HardwareCatalog.load(java.util.List.of(f));
    assertThat(mine.instance("g6e.12xlarge").orElseThrow().memoryGiB()).isEqualTo(168);
    assertThat(mine.instance("lab.box").orElseThrow().gpus()).isEqualTo(4);
    assertThat(catalog.instance("g6e.12xlarge").orElseThrow().memoryGiB()).isEqualTo(384);
    assertThat(catalog.instance("lab.box")).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"gpus\": [ {\"id\": \"x\",  | mine.json:1: not a topolens catalog",
        "{\"colour\": 1}| not a topolens catalog: Unrecognized field \"colour\"",
        "{\"instances\": [{\"type\": \"t\", \"gpu\": \"nope\", \"gpus\": 1, \"nvswitch\": false, \"efa\": 0, \"efaGbps\": 1, \"gpuDirectRdma\": false, \"vcpus\": 1, \"memoryGiB\": 1, \"sources\": [\"H200X4\"]}]}"
            + "| instance t names unknown gpu nope",
        "{\"paths\": [{\"id\": \"x\", \"rate\": \"nic\", \"sources\": [\"NOPE\"]}]}| cites source NOPE",
      })
  void badOverrideFilesSayWhatIsWrong(String text, String message, @TempDir Path dir)
      throws IOException {
    Path f = dir.resolve("mine.json");
    Files.writeString(f, text);
    assertThatThrownBy(() -> HardwareCatalog.load(java.util.List.of(f)))
        .isInstanceOf(InputProblem.class)
        .hasMessageContaining(message)
        .hasMessageStartingWith(f.toString());
  }
}
