package io.topolens.kube.lint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.diagnose.Finding;
import io.topolens.kube.Examples;
import io.topolens.kube.model.OffloadMode;
import io.topolens.kube.model.TrainerRelease;
import io.topolens.kube.present.LintJsonReport;
import io.topolens.kube.present.LintTextReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lint on the seeds'-shaped and AWS-shaped manifests in examples/k8s/lint: the exact findings, as
 * "severity id line" of their first evidence line.
 */
class LintExamplesTest {

  private static LintContext ctx(TrainerRelease trainer, boolean stated) {
    LintContext d = LintContext.defaults();
    return new LintContext(
        d.catalog(), d.settings(), d.measurements(), trainer, stated, null, null, null);
  }

  static Stream<Arguments> examples() {
    LintContext def = LintContext.defaults();
    LintContext v21 = ctx(new TrainerRelease(2, 1), true);
    LintContext v22 = ctx(new TrainerRelease(2, 2), true);
    LintContext v23 = ctx(TrainerRelease.V2_3, true);
    Map<String, String> g6e =
        Map.of(
            "INSTANCE_TYPE",
            "g6e.12xlarge",
            "NODE_NUM",
            "4",
            "GPU_PER_NODE",
            "4",
            "EFA_PER_NODE",
            "1");
    return Stream.of(
        arguments(
            "seed-trainjob-pod-per-gpu.yaml",
            def,
            Map.of(),
            List.of(
                "error trainer-release 8",
                "warn pod-per-gpu 53",
                "warn efa-count 54",
                "warn hugepages-missing 54",
                "info p2p-level-nvl 34")),
        arguments(
            "seed-trainjob-pod-per-gpu.yaml",
            v21,
            Map.of(),
            List.of(
                "warn pod-per-gpu 53",
                "warn efa-count 54",
                "warn hugepages-missing 54",
                "info p2p-level-nvl 34")),
        arguments(
            "seed-trainjob-1toM.yaml",
            v21,
            Map.of(),
            List.of(
                "warn efa-count 49",
                "warn hugepages-missing 49",
                "info p2p-level-nvl 38",
                "info pod-per-gpu 48")),
        arguments(
            "seed-trainjob-g6e-envsubst.yaml",
            def,
            Map.of(),
            List.of(
                "error trainer-release 12",
                "error trainer-release 32",
                "warn hugepages-missing 50",
                "info unresolved-placeholder 17",
                "info p2p-level-nvl 35")),
        arguments(
            "seed-trainjob-g6e-envsubst.yaml",
            v21,
            g6e,
            List.of("warn p2p-level-nvl 35", "warn hugepages-missing 50")),
        arguments(
            "seed-runtime-edited.yaml",
            def,
            Map.of(),
            List.of("error unknown-field 11", "error unknown-field 12", "error unknown-field 13")),
        arguments(
            "seed-runtime-privileged.yaml",
            def,
            Map.of(),
            List.of("warn host-ipc 23", "warn privileged 28")),
        arguments(
            "seed-pytorchjob-master-no-gpu.yaml",
            def,
            Map.of(),
            List.of(
                "error gpu-not-requested 18",
                "warn shm-missing 35",
                "info instance-not-pinned 29")),
        arguments(
            "seed-pod-per-gpu-typo.yaml",
            def,
            Map.of(),
            List.of(
                "error env-invalid 38",
                "error resource-invalid 49",
                "error resource-invalid 50",
                "info env-obsolete 30",
                "info env-obsolete 34",
                "info env-obsolete 36",
                "info env-obsolete 40")),
        arguments(
            "aws-nccl-tests-p5.yaml",
            def,
            Map.of(),
            List.of(
                "warn launcher-no-wait 4",
                "info env-obsolete 42",
                "info env-obsolete 44",
                "info env-obsolete 48")),
        arguments(
            "aws-fsdp-p4d.yaml",
            def,
            Map.of(),
            List.of(
                "warn hugepages-missing 42",
                "info env-obsolete 46",
                "info env-obsolete 48",
                "info env-obsolete 50")),
        arguments(
            "trainer-runtime-efa.yaml",
            def,
            Map.of(),
            List.of("warn offload-memory 31", "warn runtime-resources-replaced 57")),
        arguments(
            "trainer-runtime-efa.yaml",
            v22,
            Map.of(),
            List.of("error efa-not-requested 57", "error runtime-resources-replaced 57")),
        arguments("trainer-runtime-efa.yaml", v23, Map.of(), List.of("warn offload-memory 31")));
  }

  @ParameterizedTest
  @MethodSource("examples")
  void findingsOfEachExample(
      String example, LintContext ctx, Map<String, String> vars, List<String> expected) {
    LintResult r = new ManifestLint(ctx, vars).lint(List.of(Examples.lint(example)));
    assertThat(r.problems()).isEmpty();
    assertThat(r.findings())
        .extracting(f -> f.severity().label() + " " + f.id() + " " + f.evidence().get(0).line())
        .containsExactlyElementsOf(expected);
    for (Finding f : r.findings()) {
      assertThat(f.evidence()).allSatisfy(e -> assertThat(e.text()).isNotBlank());
      assertThat(f.fix()).isNotBlank();
    }
  }

  @ParameterizedTest
  @MethodSource("examples")
  void jsonAndTextAgree(
      String example, LintContext ctx, Map<String, String> vars, List<String> expected)
      throws Exception {
    LintResult r = new ManifestLint(ctx, vars).lint(List.of(Examples.lint(example)));
    StringWriter json = new StringWriter();
    new LintJsonReport().write(r, json);
    StringWriter text = new StringWriter();
    new LintTextReport().write(r, new PrintWriter(text));
    JsonNode doc = new ObjectMapper().readTree(json.toString());
    // the JSON's findings, as "severity id line" of their first evidence, are the expected ones
    List<String> fromJson = new ArrayList<>();
    for (JsonNode f : doc.path("findings")) {
      fromJson.add(
          f.path("severity").asText()
              + " "
              + f.path("id").asText()
              + " "
              + f.path("evidence").get(0).path("line").asInt());
    }
    assertThat(fromJson).containsExactlyElementsOf(expected);
    // the text shows the same findings in the same order, each headed by its severity, id and title
    List<String> headings =
        text.toString()
            .lines()
            .filter(l -> l.matches("(ERROR|WARN |INFO ) [a-z0-9-]+: .*"))
            .toList();
    List<String> fromJsonHeadings = new ArrayList<>();
    for (JsonNode f : doc.path("findings")) {
      fromJsonHeadings.add(
          String.format(
              Locale.ROOT,
              "%-5s %s: %s",
              f.path("severity").asText().toUpperCase(Locale.ROOT),
              f.path("id").asText(),
              f.path("title").asText()));
    }
    assertThat(headings).containsExactlyElementsOf(fromJsonHeadings);
    // and every evidence line of the JSON appears in the text as file:line
    for (JsonNode f : doc.path("findings")) {
      for (JsonNode e : f.path("evidence")) {
        assertThat(text.toString())
            .contains(e.path("file").asText() + ":" + e.path("line").asInt() + ": ");
      }
    }
    long errors = expected.stream().filter(x -> x.startsWith("error")).count();
    assertThat(text.toString())
        .contains(
            "Findings: "
                + errors
                + " error, "
                + expected.stream().filter(x -> x.startsWith("warn")).count()
                + " warn, "
                + expected.stream().filter(x -> x.startsWith("info")).count()
                + " info");
  }

  @org.junit.jupiter.api.Test
  void offloadFromTheCommandLineOverridesTheManifest() {
    LintContext d = LintContext.defaults();
    LintContext seeds =
        new LintContext(
            d.catalog(),
            d.settings(),
            d.measurements(),
            new TrainerRelease(2, 1),
            true,
            null,
            8e9,
            OffloadMode.PARAMS);
    LintResult r =
        new ManifestLint(
                seeds,
                Map.of(
                    "INSTANCE_TYPE",
                    "g6e.12xlarge",
                    "NODE_NUM",
                    "1",
                    "GPU_PER_NODE",
                    "4",
                    "EFA_PER_NODE",
                    "1"))
            .lint(List.of(Examples.lint("seed-trainjob-g6e-envsubst.yaml")));
    // 8B x 18 x 1.5 = 216 GB fits g6e.12xlarge's 384 GiB; no memory limit is set: nothing to say
    assertThat(r.findings()).extracting(Finding::id).doesNotContain("offload-memory");
  }

  @org.junit.jupiter.api.Test
  void allExamplesTogetherLinkRuntimesAndDoNotRepeatRuntimeFindings() {
    LintResult r =
        new ManifestLint(LintContext.defaults(), Map.of())
            .lint(
                List.of(
                    Examples.lint("seed-runtime-privileged.yaml"),
                    Examples.lint("seed-trainjob-1toM.yaml")));
    assertThat(r.findings())
        .extracting(f -> f.id() + " " + f.evidence().get(0).file().endsWith("privileged.yaml"))
        .contains("host-ipc true", "privileged true")
        .doesNotContain("host-ipc false", "privileged false");
  }
}
