package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.lab.PythonFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code topolens experiment}: the CPU example as written, and its errors. */
class ExperimentCommandTest {
  static String example(String path) {
    return Path.of("../examples/experiment").resolve(path).toAbsolutePath().normalize().toString();
  }

  @Test
  void theCpuExampleRunsAsWrittenAndDrawsItsReport(@TempDir Path dir) throws Exception {
    try {
      new PythonFinder(null).find();
    } catch (PythonFinder.NotFound e) {
      Assumptions.assumeTrue(false, "SKIPPED LOUDLY: no torch for the CPU example: " + e);
    }
    Path out = dir.resolve("cpu-probe");
    Path html = dir.resolve("cpu-probe.html");
    CliRun r =
        CliRun.of(
            "experiment",
            example("cpu-probe.yaml"),
            "--out",
            out.toString(),
            "--html",
            html.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .startsWith("Experiment cpu-probe\n")
        .containsPattern("(?m)^1x2 +ok +- +[0-9.]+ +[0-9.]+ +- +[0-9.]+x +- +- +-$")
        .containsPattern("(?m)^2x1 +ok ");
    assertThat(r.errLines()).last().isEqualTo("topolens: wrote " + html);
    assertThat(Files.readString(html)).contains("data-chart=\"variants\"", "1x2", "2x1");
    assertThat(out.resolve("results.json")).exists();
    assertThat(out.resolve("spec.yaml"))
        .hasSameTextualContentAs(Path.of(example("cpu-probe.yaml")));
  }

  @Test
  void aKubernetesSpecDryRunWritesAndPrintsEveryVariantsManifests(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("p4d");
    CliRun r =
        CliRun.of("experiment", example("seeds-p4d.yaml"), "--out", out.toString(), "--dry-run");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out().lines().filter(l -> l.startsWith("# [")).toList())
        .containsExactly(
            "# [1/5] variant 1x4-efa (probe), 4 ranks: "
                + out
                + "/variants/1x4-efa/probe/manifests.yaml",
            "# [1/5] variant 1x4-efa (train), 4 ranks: "
                + out
                + "/variants/1x4-efa/train/manifests.yaml",
            "# [2/5] variant 1x4-eni (probe), 4 ranks: "
                + out
                + "/variants/1x4-eni/probe/manifests.yaml",
            "# [2/5] variant 1x4-eni (train), 4 ranks: "
                + out
                + "/variants/1x4-eni/train/manifests.yaml",
            "# [3/5] variant 4x1-efa (probe), 4 ranks: "
                + out
                + "/variants/4x1-efa/probe/manifests.yaml",
            "# [3/5] variant 4x1-efa (train), 4 ranks: "
                + out
                + "/variants/4x1-efa/train/manifests.yaml",
            "# [4/5] variant 4x1-eni (probe), 4 ranks: "
                + out
                + "/variants/4x1-eni/probe/manifests.yaml",
            "# [4/5] variant 4x1-eni (train), 4 ranks: "
                + out
                + "/variants/4x1-eni/train/manifests.yaml",
            "# [5/5] variant 1x4-efa-NCCL_CUMEM_HOST_ENABLE=0 (probe), 4 ranks: "
                + out
                + "/variants/1x4-efa-NCCL_CUMEM_HOST_ENABLE=0/probe/manifests.yaml",
            "# [5/5] variant 1x4-efa-NCCL_CUMEM_HOST_ENABLE=0 (train), 4 ranks: "
                + out
                + "/variants/1x4-efa-NCCL_CUMEM_HOST_ENABLE=0/train/manifests.yaml");
    assertThat(r.out())
        .contains(
            "# lint: error efa-not-requested (asked for by the variant), warn pod-per-gpu",
            "probe.py: \"(probe.py, ");
    // the files hold the whole probe; nothing was applied, so no results
    assertThat(Files.readString(out.resolve("variants/4x1-efa/probe/manifests.yaml")))
        .contains("def launch_environment(env):", "numNodes: 4", "vpc.amazonaws.com/efa: 1");
    assertThat(out.resolve("results.json")).doesNotExist();
  }

  @Test
  void aClusterThatCannotBeReachedStopsBeforeTheFirstVariant(@TempDir Path dir) throws Exception {
    Path kc = dir.resolve("kc.yaml");
    Files.writeString(
        kc,
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
        users: [{name: u, user: {token: t}}]
        contexts: [{name: x, context: {cluster: c, user: u}}]
        current-context: x
        """);
    CliRun r =
        CliRun.of(
            "experiment",
            example("seeds-g6e.yaml"),
            "--out",
            dir.resolve("o").toString(),
            "--kubeconfig",
            kc.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "topolens: cannot reach the cluster at https://127.0.0.1:1 to list ConfigMaps in"
                + " namespace training (connection refused); check the kubeconfig context"
                + " (--context) and the network");
    assertThat(dir.resolve("o")).doesNotExist();
  }

  @Test
  void aBadSpecIsOneLineWithItsLine(@TempDir Path dir) throws Exception {
    Path spec = dir.resolve("bad.yaml");
    Files.writeString(spec, "variants:\n  layout: [1x2, 2x1]\n  network: infiniband-ish\n");
    CliRun r = CliRun.of("experiment", spec.toString(), "--out", dir.resolve("o").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "topolens: " + spec + ":3: network is efa, eni or ib, not \"infiniband-ish\"");
    assertThat(dir.resolve("o")).doesNotExist();
  }

  @Test
  void aMissingSpecIsOneLine(@TempDir Path dir) {
    CliRun r = CliRun.of("experiment", dir.resolve("none.yaml").toString(), "--out", "x");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly("topolens: " + dir.resolve("none.yaml") + ": no such file");
  }
}
