package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code topolens plan} end to end; the examples/k8s/plan files are what it writes today. */
class PlanCommandTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "trainjob-p4d-4x8.yaml|--instance p4d.24xlarge --nodes 4",
        "pytorchjob-p5-2x8.yaml|--instance p5.48xlarge --nodes 2 --kind pytorchjob",
        "mpijob-nccl-tests-p5-2x8.yaml|--instance p5.48xlarge --nodes 2 --workload nccl-tests",
        "trainjob-nccl-tests-p4d-2x8.yaml|--instance p4d.24xlarge --nodes 2 --workload nccl-tests --kind trainjob",
        "trainjob-g6e-4x4-seed001.yaml|--spec " + "SPEC",
      })
  void theExamplesAreWhatPlanWrites(String example, String args) throws Exception {
    String a = args.replace("SPEC", CliRun.example("specs/seed001-g6e.yaml"));
    CliRun r = CliRun.of(("plan " + a).split(" "));
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo(Files.readString(Path.of(CliRun.example("plan/" + example))));
  }

  @Test
  void examplesPlannedPassLintWithoutErrors() {
    for (String f :
        new String[] {
          "trainjob-p4d-4x8.yaml",
          "pytorchjob-p5-2x8.yaml",
          "mpijob-nccl-tests-p5-2x8.yaml",
          "trainjob-nccl-tests-p4d-2x8.yaml",
          "trainjob-g6e-4x4-seed001.yaml"
        }) {
      CliRun r = CliRun.of("lint", "--min-severity", "warn", CliRun.example("plan/" + f));
      assertThat(r.code()).as(f + "\n" + r.out()).isZero();
      assertThat(r.out()).as(f).contains("Findings: 0 error, 0 warn");
    }
  }

  @Test
  void writesAFileAndExplains() throws Exception {
    Path out = tmp.resolve("job.yaml");
    CliRun r =
        CliRun.of("plan", "--instance", "p4d.24xlarge", "--nodes", "4", "-o", out.toString());
    assertThat(r.code()).isZero();
    assertThat(r.errLines())
        .containsExactly(
            "topolens: wrote "
                + out
                + " (TrainJob train-p4d-4x8, train on 4 x p4d.24xlarge (8 x NVIDIA A100 SXM4 40GB, 4 EFA per node): 4 pod(s) of 8 GPU(s), 4 EFA each)");
    assertThat(Files.readString(out))
        .startsWith("# Written by topolens plan: TrainJob train-p4d-4x8");
    CliRun e = CliRun.of("plan", "--instance", "p4d.24xlarge", "--nodes", "4", "--explain");
    assertThat(e.out())
        .contains(
            "vpc.amazonaws.com/efa = 4\n  EFA devices per pod: all 4 of the p4d.24xlarge's (400 Gbit/s).")
        .contains("/dev/shm = 64Gi\n");
  }

  @Test
  void podPerGpuWarnsOnStderrAndInTheManifest() {
    CliRun r =
        CliRun.of("plan", "--instance", "p4d.24xlarge", "--nodes", "2", "--gpus-per-pod", "2");
    assertThat(r.code()).isZero();
    assertThat(r.errLines())
        .singleElement()
        .asString()
        .startsWith("topolens: warning: 4 pods share each p4d.24xlarge");
    assertThat(r.out()).contains("# WARNING: 4 pods share each p4d.24xlarge");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--nodes 2|topolens: plan needs --instance TYPE (or instance: in the spec file)",
        "--instance p4d.24xlarge|topolens: plan needs --nodes N (or nodes: in the spec file)",
        "--instance p4d.24xlarge --nodes 2 --gpus-per-pod 3|topolens: --gpus-per-pod 3 does not divide p4d.24xlarge's 8 GPUs (use all, or a divisor of 8)",
        "--instance g6e.12xlarge --nodes 2 --gpus-per-pod 1|topolens: g6e.12xlarge has 1 EFA for 4 GPUs: a pod of 1 GPU(s) cannot get a whole one, and an EFA device belongs to one pod only; use --gpus-per-pod 4 or more, or --network eni",
        "--instance p4d.24xlarge --nodes two|Invalid value for option '--nodes': 'two' is not an int",
        "--spec /no/such.yaml|topolens: /no/such.yaml: no such file",
      })
  void badRequestsAreOneLineAndExit2(String args, String message) {
    CliRun r = CliRun.of(("plan " + args).split(" "));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines().get(0)).isEqualTo(message);
    assertThat(r.out()).isEmpty();
  }

  @Test
  void aSpecFileWithAnUnknownKeyNamesItsLine() throws Exception {
    Path spec = tmp.resolve("spec.yaml");
    Files.writeString(spec, "instance: p4d.24xlarge\nnodes: 2\ngpus: 8\n");
    CliRun r = CliRun.of("plan", "--spec", spec.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .singleElement()
        .asString()
        .startsWith("topolens: " + spec + ":3: unknown key gpus (plan specs take instance, nodes");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource(
      delimiter = '|',
      value = {
        "instance: p4d.24xlarge\\nnodes: [1, 2]\\n | :2: nodes must be a number",
        "instance: p4d.24xlarge\\nnodes: two\\n | :2: nodes must be a number",
        "instance: p4d.24xlarge\\nnodes: 2\\nsameZone: maybe\\n | :3: sameZone must be true or false",
      })
  void aSpecValueOfTheWrongShapeNamesKeyAndLine(String text, String message) throws Exception {
    Path spec = tmp.resolve("spec.yaml");
    Files.writeString(spec, text.replace("\\n", "\n"));
    CliRun r = CliRun.of("plan", "--spec", spec.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines()).singleElement().asString().isEqualTo("topolens: " + spec + message);
  }

  @Test
  void explainListsEveryCommentedField() {
    CliRun r = CliRun.of("plan", "--instance", "p4d.24xlarge", "--nodes", "2", "--explain");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("vpc.amazonaws.com/efa = 4")
        .contains("Every commented field of the manifests:")
        .contains("TrainJob spec.trainer.numProcPerNode = 8")
        .contains("TrainJob spec.runtimeRef")
        .doesNotContain("apiVersion:");
  }
}
