package io.topolens.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link BundledJson} binds every bundled file of the core as databind bound it. */
class BundledJsonTest {
  private static final ObjectMapper DATABIND =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

  record File(
      String about,
      Map<String, Source.Entry> sources,
      List<GpuSpec> gpus,
      List<InstanceSpec> instances,
      List<PathSpec> paths) {}

  @Test
  void hardwareCatalogIsWhatDatabindReads() throws IOException {
    File expected;
    try (InputStream in = HardwareCatalog.class.getResourceAsStream("hardware.json")) {
      expected = DATABIND.readValue(in, File.class);
    }
    File ours = BundledJson.read(HardwareCatalog.class, "hardware.json", File.class);

    assertThat(expected.gpus()).hasSizeGreaterThan(5);
    assertThat(ours).isEqualTo(expected);
    assertThat(ours.gpus()).anyMatch(g -> g.nvlink() != null && g.nvlink().links() != null);
    assertThat(ours.gpus()).anyMatch(g -> g.p2p() != null).anyMatch(g -> g.bf16Tflops() == null);
    HardwareCatalog built = HardwareCatalog.builtIn();
    for (GpuSpec g : expected.gpus()) {
      assertThat(built.gpu(g.id())).contains(g);
    }
    for (InstanceSpec i : expected.instances()) {
      assertThat(built.instance(i.type())).contains(i);
    }
    for (PathSpec p : expected.paths()) {
      assertThat(built.path(p.id())).contains(p);
    }
    expected.sources().forEach((k, v) -> assertThat(built.source(k).url()).isEqualTo(v.url()));
  }

  @ParameterizedTest
  @CsvSource({
    "io.topolens.perf.PerfConstants, perf-model.json, io.topolens.perf.PerfConstants$File",
    "io.topolens.perf.ModelPresets, models.json, io.topolens.perf.ModelPresets$File"
  })
  void bundledFileIsWhatDatabindReads(String owner, String resource, String type) throws Exception {
    Class<?> o = Class.forName(owner);
    Class<?> t = Class.forName(type);
    Object expected;
    try (InputStream in = o.getResourceAsStream(resource)) {
      expected = DATABIND.readValue(in, t);
    }

    assertThat(BundledJson.read(o, resource, t)).isEqualTo(expected);
  }
}
