package io.topolens.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Table forms no bundled output shows, printed with nccl-tests' own format strings (src/util.cu
 * writeResultHeader, writeBenchmarkLinePreamble, writeBenchmarkLineBody, writePerIterReport,
 * writeTimestamp) around the real rows of ar-p2p.log.
 */
class PrintFormatsTest {

  @TempDir Path dir;

  private static final String KEYS = "# %10s  %12s  %8s  %6s  %6s";

  private static String key(BenchRow r, String redop) {
    return String.format(
        Locale.ROOT, "%12d  %12d  %8s  %6s  %6s", r.bytes(), r.count(), r.type(), redop, "-1");
  }

  private static String half(BenchResult h) {
    return String.format(
        Locale.ROOT,
        "  %7.2f  %6.2f  %6.2f  %6d",
        h.timeUs(),
        h.algBw(),
        h.busBw(),
        h.wrongCount());
  }

  private static String perIter(BenchResult h) {
    return String.format(
        Locale.ROOT,
        "  %7.2f  %7.2f  %7.2f  %7.2f",
        h.timeUs() * 0.9,
        h.timeUs() * 1.2,
        h.timeUs() * 1.1,
        3.25);
  }

  private List<BenchRow> realRows() {
    return Bench.read("fixtures/h200x4/ar-p2p.log").runs().getFirst().rows().subList(0, 12);
  }

  private BenchRun read(List<String> lines) throws Exception {
    Path p = dir.resolve("all_reduce.log");
    Files.writeString(p, String.join("\n", lines) + "\n");
    BenchFile f = Bench.read(p);
    assertThat(f.unrecognized()).isZero();
    assertThat(f.malformedRows()).isZero();
    return f.runs().getFirst();
  }

  /** {@code -I 1}: four i_* columns after each half. */
  @Test
  void perIterationColumns() throws Exception {
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            KEYS
                + "  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s %s",
            "size",
            "count",
            "type",
            "redop",
            "root",
            "time",
            "algbw",
            "busbw",
            "#wrong",
            "i_min",
            "i_max",
            "i_p99",
            "i_cv%",
            "time",
            "algbw",
            "busbw",
            "#wrong",
            "i_min",
            "i_max",
            "i_p99",
            "i_cv%",
            ""));
    for (BenchRow r : realRows()) {
      lines.add(
          key(r, "sum")
              + half(r.outOfPlace())
              + perIter(r.outOfPlace())
              + half(r.inPlace())
              + perIter(r.inPlace()));
    }
    BenchRun run = read(lines);
    assertThat(run.rows()).hasSize(12);
    assertThat(run.rows().get(11).inPlace()).isEqualTo(realRows().get(11).inPlace());
  }

  /** {@code -S 1}: a timestamp after the in-place half; the units line prints its format. */
  @Test
  void timestampColumn() throws Exception {
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            KEYS + "  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %19s",
            "size",
            "count",
            "type",
            "redop",
            "root",
            "time",
            "algbw",
            "busbw",
            "#wrong",
            "time",
            "algbw",
            "busbw",
            "#wrong",
            "timestamp"));
    lines.add(
        String.format(
            Locale.ROOT,
            KEYS + "  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %19s",
            "(B)",
            "(elements)",
            "",
            "",
            "",
            "(us)",
            "(GB/s)",
            "(GB/s)",
            "",
            "(us)",
            "(GB/s)",
            "(GB/s)",
            "",
            "%Y-%m-%d %H:%M:%S"));
    for (BenchRow r : realRows()) {
      lines.add(
          key(r, "sum")
              + half(r.outOfPlace())
              + half(r.inPlace())
              + String.format(Locale.ROOT, "%21s", "2026-11-21 21:28:36"));
    }
    BenchRun run = read(lines);
    assertThat(run.rows()).hasSize(12);
    assertThat(run.rows().getFirst().outOfPlace()).isEqualTo(realRows().getFirst().outOfPlace());
  }

  /** {@code -C 1} names the time column cputime; hypercube prints an empty redop. */
  @Test
  void cputimeAndEmptyRedop() throws Exception {
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            KEYS + "  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %s",
            "size",
            "count",
            "type",
            "redop",
            "root",
            "cputime",
            "algbw",
            "busbw",
            "#wrong",
            "cputime",
            "algbw",
            "busbw",
            "#wrong",
            ""));
    for (BenchRow r : realRows()) {
      lines.add(key(r, "") + half(r.outOfPlace()) + half(r.inPlace()));
    }
    BenchRun run = read(lines);
    assertThat(run.rows()).hasSize(12);
    assertThat(run.rows()).extracting(BenchRow::redop).containsOnly("");
    assertThat(run.rows()).extracting(BenchRow::root).containsOnly(-1);
    assertThat(run.rows().get(5).outOfPlace().timeUs())
        .isEqualTo(realRows().get(5).outOfPlace().timeUs());
  }
}
