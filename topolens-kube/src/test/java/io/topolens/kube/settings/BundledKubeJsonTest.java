package io.topolens.kube.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.catalog.BundledJson;
import java.io.InputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link BundledJson} binds the kube module's bundled files as databind bound them. */
class BundledKubeJsonTest {
  private static final ObjectMapper DATABIND =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

  @ParameterizedTest
  @CsvSource({
    "io.topolens.kube.settings.KubeSettings, kube-settings.json,"
        + " io.topolens.kube.settings.KubeSettings$File",
    "io.topolens.kube.lint.LintRuleInfo, lint-rules.json, io.topolens.kube.lint.LintRuleInfo$File"
  })
  void bundledFileIsWhatDatabindReads(String owner, String resource, String type) throws Exception {
    Class<?> o = Class.forName(owner);
    Class<?> t = Class.forName(type);
    Object expected;
    try (InputStream in = o.getResourceAsStream(resource)) {
      expected = DATABIND.readValue(in, t);
    }

    assertThat(expected).isNotNull();
    assertThat(BundledJson.read(o, resource, t)).isEqualTo(expected);
  }
}
