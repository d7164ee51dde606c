package io.topolens.report;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.verdict.Hardware;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The bundled examples as reports, written under target/reports for the tests to open. */
final class Examples {
  private Examples() {}

  /** The repository's examples folder (tests run in the module's folder). */
  static final Path EXAMPLES = Path.of("..", "examples");

  static final Path OUT = Path.of("target", "reports");

  /** The report of some inputs, as `topolens report` makes it. */
  static Report report(List<String> paths, Path config) throws Exception {
    HardwareCatalog catalog =
        HardwareCatalog.load(
            config != null && config.toString().contains("h200")
                ? List.of(EXAMPLES.resolve("perf/h200x4-catalog.json"))
                : List.of());
    return ReportSources.read(paths, config, catalog, Hardware.unknown()).report();
  }

  static String example(String name) {
    return EXAMPLES.resolve(name).toString();
  }

  /** Writes a report as target/reports/NAME.html and returns the file. */
  static Path write(String name, Report r) throws IOException {
    Files.createDirectories(OUT);
    Path f = OUT.resolve(name + ".html");
    new HtmlReport().write(r, f);
    return f;
  }
}
