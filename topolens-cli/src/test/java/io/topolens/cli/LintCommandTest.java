package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code topolens lint} end to end: exit codes, stdout, one stderr line per bad file, JSON. */
class LintCommandTest {

  @ParameterizedTest
  @CsvSource({
    "aws-nccl-tests-p5.yaml, 0, 'Findings: 0 error, 1 warn, 3 info'",
    "seed-trainjob-pod-per-gpu.yaml, 1, 'Findings: 1 error, 3 warn, 1 info'",
    "seed-runtime-edited.yaml, 1, 'Findings: 3 error, 0 warn, 0 info'",
  })
  void exitCodesFollowTheFindings(String example, int code, String counts) {
    CliRun r = CliRun.of("lint", CliRun.example("lint/" + example));
    assertThat(r.code()).as(r.err()).isEqualTo(code);
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).contains(counts);
  }

  @Test
  void textShowsEvidenceWithFileAndLineAndTheFix() {
    String f = CliRun.example("lint/seed-trainjob-g6e-envsubst.yaml");
    CliRun r =
        CliRun.of(
            "lint",
            f,
            "--var",
            "INSTANCE_TYPE=g6e.12xlarge",
            "--var",
            "NODE_NUM=4",
            "--var",
            "GPU_PER_NODE=4",
            "--var",
            "EFA_PER_NODE=1",
            "--trainer-version",
            "2.1");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("TrainJob llama-3-8b (" + f + ":6): node 4 x 4 GPU on g6e.12xlarge")
        .contains(
            "WARN  p2p-level-nvl: TrainJob llama-3-8b: NCCL_P2P_LEVEL=NVL on g6e.12xlarge, whose NVIDIA L40S GPUs have no NVLink")
        .contains("    " + f + ":35: - name: NCCL_P2P_LEVEL")
        .contains("  fix  Remove NCCL_P2P_LEVEL; NCCL then uses P2P over PCIe");
  }

  @Test
  void jsonHasTheDocumentedShape() throws Exception {
    CliRun r = CliRun.of("lint", "--format", "json", CliRun.example("lint/aws-nccl-tests-p5.yaml"));
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertThat(j.get("schema").asInt()).isEqualTo(1);
    assertThat(j.at("/workloads/0/kind").asText()).isEqualTo("MPIJob");
    assertThat(j.at("/workloads/0/groups/1/gpusPerPod").asInt()).isEqualTo(8);
    assertThat(j.at("/workloads/0/groups/1/efaPerPod").asInt()).isEqualTo(32);
    assertThat(j.at("/findings/0/id").asText()).isEqualTo("launcher-no-wait");
    assertThat(j.at("/findings/0/evidence/0/line").asInt()).isEqualTo(4);
    assertThat(j.get("problems").size()).isZero();
  }

  /** SARIF for code scanning; the schema validation is LintSarifReportTest's (kube). */
  @ParameterizedTest
  @CsvSource({
    "seed-trainjob-pod-per-gpu.yaml, 1, 5, error, trainer-release",
    "aws-nccl-tests-p5.yaml, 0, 4, warning, launcher-no-wait",
  })
  void sarifHasAResultPerFindingAndTheSameExitCode(
      String example, int code, int results, String level, String rule) throws Exception {
    String file = CliRun.example("lint/" + example);
    CliRun r = CliRun.of("lint", "--format", "sarif", file);
    assertThat(r.code()).as(r.err()).isEqualTo(code);
    JsonNode doc = new ObjectMapper().readTree(r.out());
    assertThat(doc.path("version").asText()).isEqualTo("2.1.0");
    JsonNode first = doc.at("/runs/0/results/0");
    assertThat(doc.at("/runs/0/results")).hasSize(results);
    assertThat(first.path("level").asText()).isEqualTo(level);
    assertThat(first.path("ruleId").asText()).isEqualTo(rule);
    assertThat(first.at("/locations/0/physicalLocation/artifactLocation/uri").asText())
        .isEqualTo(java.nio.file.Path.of(file).toUri().toString());
  }

  @Test
  void minSeverityHidesButTheExitCodeCountsEveryError() {
    CliRun r =
        CliRun.of(
            "lint",
            "--min-severity",
            "error",
            CliRun.example("lint/seed-trainjob-pod-per-gpu.yaml"));
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out())
        .contains("Findings: 1 error, 0 warn, 0 info")
        .doesNotContain("WARN  pod-per-gpu");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "lint/seed-pytorchjob-bad-indent.yaml|:16: malformed YAML: mapping values are not allowed here",
        "lint/bad-unknown-version.yaml|:1: unknown version trainer.kubeflow.org/v1 of TrainJob; topolens reads trainer.kubeflow.org/v1alpha1",
        "lint/bad-missing-runtime.yaml|:5: TrainJob no-runtime has no spec.runtimeRef.name (the runtime it runs on)",
        "lint/bad-numnodes.yaml|:9: trainer.numNodes must be an integer, not \"two\"",
      })
  void badInputIsOneLineAndExit2(String example, String message) {
    String f = CliRun.example(example);
    CliRun r = CliRun.of("lint", f);
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("topolens: " + f + message);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void aBadFileBesideGoodOnesIsReportedAndTheRestLinted() {
    String bad = CliRun.example("lint/bad-numnodes.yaml");
    CliRun r = CliRun.of("lint", bad, CliRun.example("lint/aws-nccl-tests-p5.yaml"));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "topolens: " + bad + ":9: trainer.numNodes must be an integer, not \"two\"");
    assertThat(r.out()).contains("MPIJob nccl-tests");
  }

  @Test
  void readsStandardInputAndSkipsKindsThatAreNotJobs() {
    String yaml =
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
            + "spec:\n  containers:\n  - name: c\n    image: i\n    resources: {limits: {nvidia.com/gpu: 2}}\n";
    CliRun r = CliRun.of(yaml.getBytes(StandardCharsets.UTF_8), "lint", "-");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out())
        .contains(
            "skipped ConfigMap c (-:2)",
            "Pod p (-:6): pod 1 x 2 GPU",
            "ERROR shm-missing: Pod p: no /dev/shm volume");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--instance p9.big|topolens: --instance p9.big is not in the hardware catalog (add it with --catalog FILE)",
        "--trainer-version two|topolens: not a Trainer release: two (want 2.3 or v2.3.0)",
        "--offload some|topolens: offload must be none, optimizer or params, not \"some\"",
        "--params lots|topolens: params must be a count such as 8e9, 8B or 125M, not \"lots\"",
        "--min-severity loud|topolens: --min-severity must be error, warn or info, not \"loud\"",
      })
  void badOptionsAreOneLine(String option, String message) {
    String[] o = option.split(" ");
    CliRun r = CliRun.of("lint", o[0], o[1], CliRun.example("lint/aws-nccl-tests-p5.yaml"));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly(message);
  }
}
