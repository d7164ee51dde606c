package io.topolens.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.bench.BenchFile;
import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import io.topolens.inputs.InputsReader;
import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.nccl.NcclLogReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reports of the bundled examples, opened in headless Chromium: nothing logged, nothing
 * requested, the charts drawn with the series and points their inputs hold, a screenshot of each
 * kept under target/screenshots. One browser serves the whole class; timeouts are generous for a
 * busy two-core machine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ReportBrowserTest {
  private Browser browser;

  @BeforeAll
  void start() {
    browser = new Browser();
  }

  @AfterAll
  void stop() {
    if (browser != null) {
      browser.close();
    }
  }

  static Stream<Arguments> examples() {
    return Stream.of(
        Arguments.of("h200-mixed", List.of(Examples.example("h200-mixed")), null),
        Arguments.of("h200-bench", List.of(Examples.example("h200-bench")), null),
        Arguments.of("eks-efa-fallback", List.of(Examples.example("eks-efa-fallback")), null),
        Arguments.of("g6e-seed001", List.of(Examples.example("g6e-seed001")), null),
        Arguments.of("h200-sockets", List.of(Examples.example("h200-sockets")), null),
        Arguments.of("topo", List.of(Examples.example("topo")), null),
        Arguments.of("seed-runs", List.of(), Examples.EXAMPLES.resolve("perf/seed-runs.yaml")),
        Arguments.of("h200-fsdp", List.of(), Examples.EXAMPLES.resolve("perf/h200-fsdp.yaml")),
        Arguments.of("experiment", List.of("src/test/resources/experiment-h200"), null),
        Arguments.of(
            "experiment-predicted", List.of("src/test/resources/experiment-h200x4-4"), null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void opensWithoutErrorsOrRequests(String name, List<String> paths, Path config) throws Exception {
    Path file = Examples.write(name, Examples.report(paths, config));
    Browser.Visit v = browser.open(file);
    assertThat(v.console()).as("console").isEmpty();
    assertThat(v.requests()).as("requests besides the page").isEmpty();
    assertThat(v.failures()).as("failed loads").isEmpty();
    assertThat(browser.count("main svg[role=img], main table.topo")).as("charts").isPositive();
    assertThat(browser.texts("h1")).containsExactly("topolens report");
    assertThat(
            browser.js(
                "const ids = [...document.querySelectorAll('[id]')].map(e => e.id);"
                    + " return ids.length - new Set(ids).size;"))
        .as("duplicate ids")
        .isEqualTo(0L);
    assertThat(browser.count("main svg[role=img]"))
        .as("every chart has a title")
        .isEqualTo(browser.count("main svg[role=img] > title:first-child"));
    Path shot = browser.screenshot(name);
    assertThat(Files.size(shot)).isGreaterThan(10_000);
  }

  @Test
  void bandwidthChartDrawsEveryRunAndEverySizeWithABusbw() throws Exception {
    List<String> paths = List.of(Examples.example("h200-bench"));
    browser.open(Examples.write("bandwidth", Examples.report(paths, null)));
    List<String> files = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    for (BenchFile f : new InputsReader(new NcclLogReader()).read(paths).benches()) {
      for (BenchRun r : f.runs()) {
        files.add(r.file());
        sizes.add(
            r.rows().stream()
                .map(BenchRow::outOfPlace)
                .filter(o -> o != null && o.busBw() > 0)
                .count());
      }
    }
    assertThat(files).hasSize(3);
    assertThat(browser.attrs("svg[data-chart=bandwidth] g.series-group", "data-series"))
        .containsExactlyElementsOf(files);
    for (int i = 0; i < files.size(); i++) {
      String g = "svg[data-chart=bandwidth] g.series-group:nth-of-type(" + (i + 1) + ")";
      assertThat(browser.count("svg[data-chart=bandwidth] g.series-group")).isEqualTo(files.size());
      assertThat(
              browser.count(
                  "svg[data-chart=bandwidth] g.series-group[data-series=\""
                      + files.get(i)
                      + "\"] path.point"))
          .as(files.get(i))
          .isEqualTo(sizes.get(i));
      assertThat(
              browser
                  .box(g.replace(":nth-of-type(" + (i + 1) + ")", "") + " polyline")
                  .get("w")
                  .doubleValue())
          .isGreaterThan(100);
    }
    // the catalog's NVLink rate for H200 and the SHM bound, each with its healthy band
    assertThat(browser.texts("svg[data-chart=bandwidth] g.rate-group > text"))
        .containsExactlyInAnyOrder("NVLink/NVSwitch 450 GB/s", "SHM through host memory 64 GB/s");
    assertThat(browser.count("svg[data-chart=bandwidth] rect.band")).isEqualTo(2);
    assertThat(browser.texts("table td .sev"))
        .containsExactly("healthy", "slower-path", "slower-path");
  }

  @Test
  void transportMapColoursEachPairByThePathNcclTook() throws Exception {
    browser.open(
        Examples.write("maps", Examples.report(List.of(Examples.example("h200-bench")), null)));
    List<String> titles = browser.texts("figure.map figcaption");
    assertThat(titles).hasSize(3);
    // one cell per (sender, receiver) pair that NCCL printed a connection for, in its path's colour
    Map<String, Set<String>> pairs = new HashMap<>();
    for (Communicator c :
        new InputsReader(new NcclLogReader())
            .read(List.of(Examples.example("h200-bench")))
            .job()
            .communicators()) {
      for (Edge e : c.edges()) {
        pairs
            .computeIfAbsent(e.path().transport().name(), k -> new HashSet<>())
            .add(c.key() + " " + e.from() + ">" + e.to());
      }
    }
    assertThat(pairs.keySet()).containsExactlyInAnyOrder("NET", "SHM", "P2P");
    assertThat(browser.count("rect.cell.p-net-tcp")).isEqualTo(pairs.get("NET").size());
    assertThat(browser.count("rect.cell.p-shm")).isEqualTo(4);
    assertThat(browser.count("rect.cell.p-p2p")).isEqualTo(4);
    assertThat(browser.count("svg[data-chart=transport-map] rect.cell"))
        .isEqualTo(pairs.values().stream().mapToInt(Set::size).sum());
    assertThat(browser.texts("rect.cell.p-shm > title"))
        .contains("0 → 1: SHM/direct/direct (1 connection)");
    assertThat(browser.attrs("svg[data-chart=transport-map]", "data-unit")).containsOnly("rank");
    // the topo -m matrix beside it: 4 x H200, every pair NV18
    assertThat(browser.texts("table.topo td").stream().filter("NV18"::equals)).hasSize(12);
  }

  @Test
  void stepChartShowsEveryConfigurationWithItsMeasuredJobTime() throws Exception {
    browser.open(
        Examples.write(
            "steps", Examples.report(List.of(), Examples.EXAMPLES.resolve("perf/seed-runs.yaml"))));
    assertThat(browser.attrs("svg[data-chart=steps] g.bar", "data-name"))
        .containsExactly(
            "p4d 1 pod x 4 GPUs (NVLink)",
            "p4d 4 pods x 1 GPU (EFA)",
            "4 x g6e.12xlarge EFA",
            "4 x g6e.12xlarge ENI");
    assertThat(browser.count("svg[data-chart=steps] rect.seg.t-communication")).isPositive();
    assertThat(browser.count("svg[data-chart=steps] rect.seg.t-cpu-optimizer")).isEqualTo(4);
    // seed-runs.yaml gives a measured job time for all four runs
    assertThat(browser.count("svg[data-chart=jobs] rect.measured")).isEqualTo(4);
    assertThat(browser.texts("svg[data-chart=jobs] rect.measured > title").get(0))
        .startsWith("p4d 1 pod x 4 GPUs (NVLink): measured 1787 s");
  }

  @Test
  void experimentDrawsABarPerVariantThatRanAndSaysWhyTheOthersDidNot() throws Exception {
    browser.open(
        Examples.write(
            "variants", Examples.report(List.of("src/test/resources/experiment-h200"), null)));
    assertThat(browser.attrs("svg[data-chart=variants] g.variant", "data-name"))
        .containsExactly("p2p", "shm", "sockets", "efa", "ib <script>alert(1)</script>");
    assertThat(browser.count("svg[data-chart=variants] g.variant rect")).isEqualTo(3);
    assertThat(browser.attrs("svg[data-chart=variants] g.variant rect", "class"))
        .containsExactly("bar p-p2p", "bar p-shm", "bar p-net-tcp");
    assertThat(browser.texts("svg[data-chart=variants] g.variant > text"))
        .contains(
            "2.91 s · NET/Socket/0; error same-host-over-network",
            "skipped, no step time",
            "failed, no step time");
    assertThat(browser.count("script")).isZero();
  }

  /**
   * The fourth 4 x H200 layout experiment as {@code topolens experiment} writes it today from its
   * recorded logs: each variant's measured step beside predict's, from its own probe and with 1x4's
   * step, with their errors (docs/experiment.md's table).
   */
  @Test
  void experimentTableShowsThePredictionsBesideTheMeasuredSteps() throws Exception {
    browser.open(
        Examples.write(
            "predictions",
            Examples.report(List.of("src/test/resources/experiment-h200x4-4"), null)));
    String table = "table.experiment tbody ";
    assertThat(browser.attrs(table + "tr", "data-name"))
        .containsExactly("1x4", "2x2", "1x4-NCCL_P2P_DISABLE=1", "4x1");
    assertThat(browser.texts(table + "td.step")).containsExactly("0.123", "0.863", "0.23", "1.37");
    assertThat(browser.texts(table + "td.from-probe .s"))
        .containsExactly("0.137", "0.946", "0.202", "1.4");
    assertThat(browser.texts(table + "td.from-probe .err"))
        .containsExactly("(+11%)", "(+10%)", "(-12%)", "(+3%)");
    assertThat(browser.texts(table + "td.from-probe .basis"))
        .containsExactly(
            "its own probe: NVLink at 356 GB/s busbw",
            "its own probe: TCP sockets at 6.37 GB/s busbw",
            "its own probe: SHM at 30.5 GB/s busbw",
            "its own probe: TCP sockets at 4.28 GB/s busbw");
    assertThat(browser.texts(table + "td.with-one-step .s"))
        .containsExactly("0.123", "0.946", "0.202", "1.4");
    assertThat(browser.texts(table + "td.with-one-step .err"))
        .containsExactly("(0%)", "(+10%)", "(-12%)", "(+3%)");
    assertThat(browser.texts(table + "td.with-one-step .basis"))
        .containsExactly(
            "the reference: its own measured step",
            "held out; 1x4's measured step fixed the compute",
            "held out; 1x4's measured step fixed the compute",
            "held out; 1x4's measured step fixed the compute");
    assertThat(browser.texts("p.with-one-step"))
        .containsExactly(
            "With one step: 1x4's measured step (0.123 s, 0.137 s predicted) fixes the job's MFU at"
                + " 0.108 (the model's 0.097); the other variants held out.");
    // the predictions stay inside the page's width (the table scrolls, the page does not)
    assertThat((Boolean) browser.js("return document.body.scrollWidth <= window.innerWidth"))
        .isTrue();

    // an experiment without predict: a dash and why in each prediction cell
    browser.open(
        Examples.write(
            "no-predictions",
            Examples.report(List.of("src/test/resources/experiment-h200"), null)));
    assertThat(browser.texts(table + "td.pred"))
        .hasSize(10)
        .containsOnly("–no predict: in the spec");
    assertThat(browser.texts(table + "td.pred .why")).containsOnly("no predict: in the spec");
    assertThat(browser.count("p.with-one-step")).isZero();
  }

  @Test
  void hostileLogLinesStayText() throws Exception {
    Path file =
        Examples.write(
            "hostile", Examples.report(List.of("src/test/resources/hostile/hostile.log"), null));
    Browser.Visit v = browser.open(file);
    assertThat(v.console()).isEmpty();
    assertThat(browser.count("script")).isZero();
    assertThat(browser.count("[onerror], [onload], img")).isZero();
    String text = (String) browser.js("return document.body.innerText");
    assertThat(text)
        .contains("<img src=x onerror=alert(2)>")
        .contains("</svg><svg onload=alert(3)><script>alert(4)</script>")
        .contains("eth0\"><script>alert(5)</script>");
    // the only SVGs are the charts: a transport map (no </svg> from a log line closed one early)
    assertThat(browser.count("svg[role=img]")).isEqualTo(1);
    assertThat(browser.count("svg[data-chart=transport-map] rect.cell")).isEqualTo(4);
    browser.screenshot("hostile");
  }

  /**
   * A job of 4096 ranks (1024 hosts of 4 GPUs, bench/make-big-log.py): the report stays far under 2
   * MB; the load time Chromium reports is printed for docs/performance.md, not asserted.
   */
  @Test
  void aJobOf4096RanksGivesASmallReport() throws Exception {
    Path log = Path.of("target", "big-4096.log");
    if (!Files.exists(log)) {
      Process p =
          new ProcessBuilder(
                  "python3",
                  "../bench/make-big-log.py",
                  Examples.example("h200-p2p/fsdp-p2p.log"),
                  log.toString(),
                  "hosts=1024")
              .inheritIO()
              .start();
      assertThat(p.waitFor()).isZero();
    }
    Path file = Examples.write("big-4096", Examples.report(List.of(log.toString()), null));
    assertThat(Files.size(file)).isLessThan(2_000_000);
    Browser.Visit v = browser.open(file);
    assertThat(v.console()).isEmpty();
    System.out.printf(
        "4096-rank report: %d bytes, Chromium load %.0f ms%n",
        Files.size(file), browser.loadMillis());
    assertThat(browser.texts("dl.facts dd")).contains("4096 GPU context(s)");
    assertThat(browser.attrs("svg[data-chart=transport-map]", "data-unit"))
        .containsExactly("group of 8 nodes");
    browser.screenshot("big-4096");
  }
}
