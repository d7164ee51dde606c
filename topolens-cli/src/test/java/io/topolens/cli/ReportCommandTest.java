package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code topolens report} and {@code --html} on the examples, and their errors. */
class ReportCommandTest {
  static String examples(String path) {
    return Path.of("../examples").resolve(path).toAbsolutePath().normalize().toString();
  }

  @Test
  void reportWritesOneFileOfWhatDiagnoseFinds(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("mixed.html");
    CliRun r = CliRun.of("report", examples("h200-mixed"), "-o", out.toString());
    assertThat(r.code()).isZero();
    assertThat(r.errLines()).containsExactly("topolens: wrote " + out);
    String html = Files.readString(out);
    assertThat(html)
        .contains("nvlink-unused", "busbw-below-expected", "p2p-unavailable")
        .contains(
            "data-chart=\"transport-map\"", "data-chart=\"bandwidth\"", "table class=\"topo\"");
  }

  @Test
  void reportDrawsACompareConfiguration(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("seed.html");
    CliRun r =
        CliRun.of("report", "--config", examples("perf/seed-runs.yaml"), "-o", out.toString());
    assertThat(r.code()).isZero();
    assertThat(Files.readString(out)).contains("data-chart=\"steps\"", "data-chart=\"jobs\"");
  }

  @Test
  void htmlBesideTheUsualOutput(@TempDir Path dir) throws Exception {
    Path d = dir.resolve("d.html");
    CliRun diag = CliRun.of("diagnose", examples("eks-efa-fallback"), "--html", d.toString());
    assertThat(diag.code()).isEqualTo(1);
    assertThat(diag.out()).contains("net-plugin-fallback");
    assertThat(Files.readString(d)).contains("net-plugin-fallback");

    Path b = dir.resolve("b.html");
    CliRun bench = CliRun.of("bench", examples("h200-bench"), "--html", b.toString());
    assertThat(bench.code()).isEqualTo(1);
    assertThat(Files.readString(b)).contains("data-chart=\"bandwidth\"", "slower-path");

    Path c = dir.resolve("c.html");
    CliRun compare =
        CliRun.of("compare", "--config", examples("perf/seed-runs.yaml"), "--html", c.toString());
    assertThat(compare.code()).isZero();
    assertThat(compare.out()).startsWith("topolens compare: 4 configurations");
    assertThat(Files.readString(c)).contains("measured 1787 s");
  }

  @Test
  void errorsAreOneLineAndExitTwo(@TempDir Path dir) {
    CliRun none = CliRun.of("report", "-o", dir.resolve("x.html").toString());
    assertThat(none.code()).isEqualTo(2);
    assertThat(none.errLines())
        .containsExactly("topolens: nothing to report: give inputs (PATH...) and/or --config FILE");

    String missing = dir.resolve("nothing-here.log").toString();
    CliRun unreadable = CliRun.of("report", missing, "-o", dir.resolve("y.html").toString());
    assertThat(unreadable.code()).isEqualTo(2);
    assertThat(unreadable.errLines())
        .containsExactly("topolens: " + missing + ": no such file or directory");

    String to = dir.resolve("no/such/dir/z.html").toString();
    CliRun unwritable = CliRun.of("report", examples("h200-p2p"), "-o", to);
    assertThat(unwritable.code()).isEqualTo(2);
    assertThat(unwritable.errLines())
        .containsExactly("topolens: cannot write " + to + ": no such folder");
  }
}
