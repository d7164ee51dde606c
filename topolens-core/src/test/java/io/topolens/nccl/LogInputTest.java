package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogInputTest {
  @TempDir Path dir;

  /** An experiment's variant folder: rank logs beside the probe's source and topolens' report. */
  @Test
  void aFolderSkipsProgramsAndTopolensOwnReportsAndSaysSo() throws Exception {
    Path log = dir.resolve("rank-0.out");
    Files.writeString(log, "vm:684:684 [0] NCCL INFO NCCL_NVLS_ENABLE set by environment to 0.\n");
    Files.writeString(dir.resolve("probe.py"), "# out-of-place in-place\n#  size count type\n");
    Files.writeString(
        dir.resolve("diagnosis.txt"),
        "topolens diagnose: 2 input(s)\n    rank-0.out:1: vm:684:684 [0] NCCL INFO NCCL_NVLS\n");

    LogInput.Expansion e = LogInput.expand(List.of(dir.toString()));

    assertThat(e.inputs()).extracting(LogInput::path).containsExactly(log);
    assertThat(e.skipped())
        .extracting(LogInput.Skipped::name, LogInput.Skipped::problem)
        .containsExactly(
            tuple(dir.resolve("diagnosis.txt").toString(), "topolens' own report, not a log"),
            tuple(dir.resolve("probe.py").toString(), "a program's source, not a log"));
  }

  @Test
  void aFileNamedOnTheCommandLineIsAlwaysRead() throws Exception {
    Path report = dir.resolve("diagnosis.txt");
    Files.writeString(report, "topolens diagnose: 1 input(s)\n");

    LogInput.Expansion e = LogInput.expand(List.of(report.toString()));

    assertThat(e.inputs()).extracting(LogInput::path).containsExactly(report);
    assertThat(e.skipped()).isEmpty();
  }
}
