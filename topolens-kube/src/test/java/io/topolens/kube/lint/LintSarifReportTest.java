package io.topolens.kube.lint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.topolens.diagnose.Finding;
import io.topolens.kube.Examples;
import io.topolens.kube.present.LintSarifReport;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code lint --format sarif} validates against the SARIF 2.1.0 schema (test resources sarif/, with
 * its source) and says what the findings say; the rule metadata is docs/lint.md's.
 */
class LintSarifReportTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SARIF = schema();

  private static Schema schema() {
    try (InputStream in =
        LintSarifReportTest.class.getResourceAsStream("/sarif/sarif-2.1.0-rtm.5.json")) {
      return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4)
          .getSchema(JSON.readTree(in));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static List<String> errors(JsonNode doc) {
    return SARIF.validate(doc).stream().map(Object::toString).toList();
  }

  static JsonNode sarif(LintResult r) throws Exception {
    StringWriter w = new StringWriter();
    new LintSarifReport("0.1.0").write(r, w);
    return JSON.readTree(w.toString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "seed-pod-per-gpu-typo.yaml",
        "seed-trainjob-pod-per-gpu.yaml",
        "aws-nccl-tests-p5.yaml",
        "aws-fsdp-p4d.yaml",
        "trainer-runtime-efa.yaml",
        "seed-pytorchjob-bad-indent.yaml",
      })
  void everyExampleIsValidSarifWithOneResultPerFinding(String example) throws Exception {
    LintResult r =
        new ManifestLint(LintContext.defaults(), Map.of()).lint(List.of(Examples.lint(example)));
    JsonNode doc = sarif(r);
    assertThat(errors(doc)).isEmpty();
    JsonNode run = doc.at("/runs/0");
    assertThat(run.path("results")).hasSize(r.findings().size());
    assertThat(run.at("/invocations/0/executionSuccessful").asBoolean())
        .isEqualTo(r.problems().isEmpty());
    assertThat(run.at("/invocations/0/toolExecutionNotifications")).hasSize(r.problems().size());
    for (int i = 0; i < r.findings().size(); i++) {
      Finding f = r.findings().get(i);
      JsonNode res = run.path("results").get(i);
      assertThat(res.path("ruleId").asText()).isEqualTo(f.id());
      assertThat(run.at("/tool/driver/rules/" + res.path("ruleIndex").asInt() + "/id").asText())
          .isEqualTo(f.id());
      JsonNode loc = res.at("/locations/0/physicalLocation");
      assertThat(loc.at("/region/startLine").asInt()).isEqualTo(f.evidence().get(0).line());
      assertThat(loc.at("/region/snippet/text").asText()).isEqualTo(f.evidence().get(0).text());
      assertThat(loc.at("/artifactLocation/uri").asText())
          .isEqualTo(Path.of(f.evidence().get(0).file()).toUri().toString());
    }
  }

  @Test
  void theSeedsTypoAsCodeScanningShowsIt() throws Exception {
    JsonNode doc =
        sarif(
            new ManifestLint(LintContext.defaults(), Map.of())
                .lint(List.of("../examples/k8s/lint/seed-pod-per-gpu-typo.yaml")));
    JsonNode first = doc.at("/runs/0/results/0");
    assertThat(first.path("ruleId").asText()).isEqualTo("env-invalid");
    assertThat(first.path("level").asText()).isEqualTo("error");
    assertThat(first.at("/locations/0/physicalLocation/artifactLocation/uri").asText())
        .isEqualTo("../examples/k8s/lint/seed-pod-per-gpu-typo.yaml");
    assertThat(first.at("/locations/0/physicalLocation/artifactLocation/uriBaseId").asText())
        .isEqualTo("%SRCROOT%");
    assertThat(first.at("/locations/0/physicalLocation/region/startLine").asInt()).isEqualTo(38);
    assertThat(first.at("/message/text").asText())
        .startsWith(
            "TrainJob llama-3-8b-each-gpu: NCCL_ALGO=true is not a value NCCL_ALGO accepts.")
        .endsWith(
            " Fix: Remove NCCL_ALGO (NCCL chooses per message size), or name the algorithm:"
                + " NCCL_ALGO=Tree.");
    assertThat(doc.at("/runs/0/tool/driver/rules")).hasSize(Linter.standard().rules().size());
  }

  @Test
  void theValidatorRejectsWhatIsNotSarif() throws Exception {
    ObjectNode doc =
        (ObjectNode)
            sarif(
                new ManifestLint(LintContext.defaults(), Map.of())
                    .lint(List.of(Examples.lint("aws-fsdp-p4d.yaml"))));
    assertThat(errors(doc)).isEmpty();
    ObjectNode broken = doc.deepCopy();
    broken.put("version", "2.0.0");
    assertThat(errors(broken)).isNotEmpty();
    broken = doc.deepCopy();
    ((ObjectNode) broken.at("/runs/0/results/0")).put("level", "warn");
    assertThat(errors(broken)).isNotEmpty();
    broken = doc.deepCopy();
    ((ObjectNode) broken.at("/runs/0/results/0/locations/0/physicalLocation/region"))
        .put("startLine", 0);
    assertThat(errors(broken)).isNotEmpty();
  }

  /** Every rule's metadata is docs/lint.md's: its id, its first severity and its What line. */
  @Test
  void ruleMetadataIsWhatDocsLintSays() throws Exception {
    String doc = Files.readString(Examples.root().resolve("docs/lint.md"));
    Matcher m =
        Pattern.compile(
                "\\n## `([a-z0-9-]+)`\\n- \\*\\*Severity\\*\\*: (\\w+).*?\\n- \\*\\*What\\*\\*: (.*?)(?=\\n- \\*\\*|\\n\\n)",
                Pattern.DOTALL)
            .matcher(doc);
    int n = 0;
    while (m.find()) {
      LintRuleInfo info = LintRuleInfo.of(m.group(1)).orElseThrow();
      assertThat(info.what()).isEqualTo(String.join(" ", m.group(3).split("\\s+")));
      assertThat(info.severity().label()).isEqualTo(m.group(2).equals("per") ? "warn" : m.group(2));
      n++;
    }
    assertThat(n).isEqualTo(LintRuleInfo.all().size());
    assertThat(Linter.standard().rules().stream().map(LintRule::id))
        .containsExactlyInAnyOrderElementsOf(
            LintRuleInfo.all().stream().map(LintRuleInfo::id).toList());
    assertThat(Stream.of("error", "warn", "info"))
        .contains(LintRuleInfo.all().get(0).severity().label());
  }
}
