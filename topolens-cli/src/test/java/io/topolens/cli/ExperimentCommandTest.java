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
        .containsPattern("(?m)^1x2 +ok +- +[0-9.]+ +[0-9.]+ +- +[0-9.]+x +- +-$")
        .containsPattern("(?m)^2x1 +ok ");
    assertThat(r.errLines()).last().isEqualTo("topolens: wrote " + html);
    assertThat(Files.readString(html)).contains("data-chart=\"variants\"", "1x2", "2x1");
    assertThat(out.resolve("results.json")).exists();
    assertThat(out.resolve("spec.yaml"))
        .hasSameTextualContentAs(Path.of(example("cpu-probe.yaml")));
  }

  @Test
  void aKubernetesSpecIsReadButNotRunYet() {
    CliRun r = CliRun.of("experiment", example("seeds-p4d.yaml"), "--out", "/nonexistent/x");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "topolens: "
                + example("seeds-p4d.yaml")
                + ": where: kubernetes experiments are not built yet (the spec is valid); run where:"
                + " local, or each variant with topolens plan and topolens run");
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
