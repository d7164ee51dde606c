package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.Fixtures;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runs cut short, made from real outputs: the file stops after a row, inside a row, or an error
 * line follows; the rows before are kept, and the end says where and why.
 */
class CutShortTest {

  @TempDir Path dir;

  private List<String> lines(String resource) throws IOException {
    return Files.readAllLines(Fixtures.path(resource), StandardCharsets.UTF_8);
  }

  private static int lineOf(List<String> lines, String start) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).stripLeading().startsWith(start)) {
        return i;
      }
    }
    throw new AssertionError("no line starts with " + start);
  }

  private BenchFile write(String name, List<String> lines, String tail) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, String.join("\n", lines) + "\n" + tail, StandardCharsets.UTF_8);
    return Bench.read(p);
  }

  /** ar-p2p.log cut after the row of a size: the sweep to 4 GiB was not done. */
  @ParameterizedTest(name = "cut after {0} B")
  @CsvSource({"1048576,18", "8,1", "2147483648,29"})
  void cutAfterARow(long size, int rows) throws Exception {
    List<String> all = lines("fixtures/h200x4/ar-p2p.log");
    int at = lineOf(all, size + " ");
    BenchFile f = write("cut.log", all.subList(0, at + 1), "");
    BenchRun r = f.runs().getFirst();
    assertThat(r.completion()).isEqualTo(Completion.ABORTED);
    assertThat(r.rows()).hasSize(rows);
    assertThat(r.rows().getLast().bytes()).isEqualTo(size);
    assertThat(r.avgBusBw()).isNull();
    assertThat(r.end().line()).isEqualTo(at + 1);
    assertThat(r.end().text())
        .isEqualTo(
            "output stops after the "
                + size
                + " B row; sizes up to 4294967296 B were due (next "
                + size * 2
                + " B)");
    assertThat(r.peak()).isNotNull();
  }

  /** Cut inside a row: the partial line is malformed, counted, not guessed. */
  @Test
  void cutInsideARow() throws Exception {
    List<String> all = lines("fixtures/h200x4/ar-p2p.log");
    int at = lineOf(all, "1048576 ");
    String half = all.get(at).substring(0, 70);
    BenchFile f = write("cut.log", all.subList(0, at), half);
    BenchRun r = f.runs().getFirst();
    assertThat(r.completion()).isEqualTo(Completion.ABORTED);
    assertThat(r.rows()).hasSize(17);
    assertThat(f.malformedRows()).isEqualTo(1);
    assertThat(f.malformedSamples().getFirst().line()).isEqualTo(at + 1);
    assertThat(r.end().line()).isEqualTo(at + 1);
    assertThat(r.end().text()).isEqualTo("output stops inside a row: " + half.strip());
  }

  /** An error line of nccl-tests (common.h's NCCLCHECK) ends the run where it stands. */
  @Test
  void errorLineAfterRows() throws Exception {
    List<String> all = lines("fixtures/h200x4/ar-p2p.log");
    int at = lineOf(all, "65536 ");
    String error =
        "vm: Test NCCL failure common.cu:1160 'unhandled cuda error (run with NCCL_DEBUG=INFO for"
            + " details) / '";
    List<String> cut = new ArrayList<>(all.subList(0, at + 1));
    cut.add(error);
    cut.add(" .. vm pid 1704: Test failure common.cu:1040");
    BenchFile f = write("err.log", cut, "");
    BenchRun r = f.runs().getFirst();
    assertThat(r.completion()).isEqualTo(Completion.ABORTED);
    assertThat(r.rows()).hasSize(14);
    assertThat(r.end().line()).isEqualTo(at + 2);
    assertThat(r.end().text()).isEqualTo(error);
  }

  /** An NCCL WARN after the last row is the reason kept for a run that then stops. */
  @Test
  void warnAfterLastRowIsTheReason() throws Exception {
    List<String> all = lines("fixtures/h200x4/ar-p2p.log");
    int at = lineOf(all, "65536 ");
    String warn =
        "vm:1704:1730 [2] NCCL WARN Cuda failure 'an illegal memory access was encountered'";
    List<String> cut = new ArrayList<>(all.subList(0, at + 1));
    cut.add(warn);
    BenchFile f = write("warn.log", cut, "");
    BenchRun r = f.runs().getFirst();
    assertThat(r.completion()).isEqualTo(Completion.ABORTED);
    assertThat(r.end()).extracting(e -> e.line(), e -> e.text()).containsExactly(at + 2L, warn);
  }

  /** The JSON of a process that died before closing it: rows read so far, ABORTED. */
  @Test
  void jsonCutInsideResults() throws Exception {
    String json = Files.readString(Fixtures.path("fixtures/h200x4/ar-p2p.json"));
    int third = json.indexOf("{\"size\":16777216");
    Path p = dir.resolve("cut.json");
    Files.writeString(p, json.substring(0, third + 40));
    BenchFile f = Bench.read(p);
    BenchRun r = f.runs().getFirst();
    assertThat(r.completion()).isEqualTo(Completion.ABORTED);
    assertThat(r.rows()).extracting(BenchRow::bytes).containsExactly(1048576L, 4194304L);
    assertThat(r.collective()).isEqualTo(Collective.ALL_REDUCE);
    assertThat(r.end().text()).startsWith("JSON output ends early after 2 results");
  }

  /** A table-only excerpt without parameters cannot be told cut: NO_SUMMARY. */
  @Test
  void excerptWithoutSummary() {
    BenchRun r =
        Bench.read("public/nccl-tests/004-all-reduce-2x-p4de-srun-prefix-no-summary.txt")
            .runs()
            .getFirst();
    assertThat(r.completion()).isEqualTo(Completion.NO_SUMMARY);
    assertThat(r.end().line()).isEqualTo(31);
  }

  /** Stopped before any row: the run is kept, with what it had. */
  @Test
  void stoppedAfterTheHeader() throws Exception {
    List<String> all = lines("fixtures/h200x4/ar-p2p.log");
    int at = lineOf(all, "#        (B)");
    BenchRun r = write("head.log", all.subList(0, at + 1), "").runs().getFirst();
    assertThat(r.completion()).isEqualTo(Completion.ABORTED);
    assertThat(r.rows()).isEmpty();
    assertThat(r.nranks()).isEqualTo(4);
    assertThat(r.end().text()).isEqualTo("output stops after the table header, before any row");
  }

  @Test
  void gzipIsReadAsIs() throws Exception {
    Path p = dir.resolve("ar-p2p.log.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
      Files.copy(Fixtures.path("fixtures/h200x4/ar-p2p.log"), out);
    }
    BenchRun r = Bench.read(p).runs().getFirst();
    assertThat(r.peak().outOfPlace().busBw()).isEqualTo(362.84);
    assertThat(r.completion()).isEqualTo(Completion.COMPLETE);
  }

  @Test
  void inputsThatAreNotBenchmarks() throws Exception {
    Path empty = dir.resolve("empty.log");
    Files.writeString(empty, "");
    assertThatThrownBy(() -> Bench.read(empty))
        .isInstanceOf(InputProblem.class)
        .hasMessage("empty.log: empty file");
    assertThatThrownBy(() -> Bench.read(Fixtures.path("fixtures/h200x4/fsdp/p2p.log")))
        .isInstanceOf(InputProblem.class)
        .hasMessage("p2p.log: no nccl-tests output found (258 lines, 257 of them NCCL log lines)");
    // a failure report alone (nccl/heldout set12 p14, after the reporter's prose; set10 z08):
    // nccl-tests failed, which is not "no nccl-tests output"
    assertThatThrownBy(
            () ->
                Bench.read(
                    Fixtures.path(
                        "nccl/heldout/set12/p14-nccl-tests-internal-error-2.18-title-nccl-tests-275.log")))
        .isInstanceOf(InputProblem.class)
        .hasMessage(
            "p14-nccl-tests-internal-error-2.18-title-nccl-tests-275.log: nccl-tests failed before"
                + " its first result (1 failure line(s) of 1, no table)");
    Path other = dir.resolve("other.json");
    Files.writeString(other, "{\"name\": \"x\", \"items\": [1, 2]}");
    assertThatThrownBy(() -> Bench.read(other))
        .isInstanceOf(InputProblem.class)
        .hasMessage("other.json: not nccl-tests JSON output (no config, results or args)");
    Path binary = dir.resolve("bin.dat");
    Files.write(binary, new byte[] {0, 1, 2, 3, 0, 0, 0, 5});
    assertThatThrownBy(() -> Bench.read(binary))
        .isInstanceOf(InputProblem.class)
        .hasMessage("bin.dat: binary data, not a text log");
    Path missing = dir.resolve("missing.log");
    assertThatThrownBy(() -> Bench.read(missing))
        .isInstanceOf(InputProblem.class)
        .hasMessage("missing.log: cannot open: no such file or directory");
  }
}
