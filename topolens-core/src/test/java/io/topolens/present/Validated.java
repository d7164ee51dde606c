package io.topolens.present;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.perf.Calibrator;
import io.topolens.perf.ModelValidation;
import io.topolens.perf.PerfConstants;
import io.topolens.perf.ValidationReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * The model judged on the repository's data as {@code validate-model} judges it (the lent H100
 * host's catalog, the 4 x H200 fixtures, examples/perf), with some experiments, and the Markdown it
 * writes: the shared set-up of the tests of validation's explanations.
 *
 * @param report what validation found
 * @param md the document written from it
 */
record Validated(ValidationReport report, String md) {
  private static final Path REPO = Path.of("..");

  /**
   * Judges the given experiments' results (paths under the repository) with their run configs (one
   * per result), beside the one-GPU measurement folders named.
   */
  static Validated run(List<String> measurements, List<String> results, List<String> configs)
      throws Exception {
    return run(measurements, results, configs, List.of(), List.of());
  }

  /** As above, with folders of one experiment repeated on one machine and their run configs. */
  static Validated run(
      List<String> measurements,
      List<String> results,
      List<String> configs,
      List<String> repeats,
      List<String> repeatsConfigs)
      throws Exception {
    ValidationReport report =
        new ModelValidation(
                HardwareCatalog.builtIn()
                    .with(REPO.resolve("examples/experiment/lent-h100-catalog.json")),
                PerfConstants.bundled(),
                Calibrator.standard())
            .run(
                REPO.resolve("topolens-core/src/test/resources/fixtures/h200x4"),
                REPO.resolve("examples/perf"),
                measurements.stream().map(REPO::resolve).toList(),
                results.stream().map(REPO::resolve).toList(),
                configs.stream().map(REPO::resolve).toList(),
                repeats.stream().map(REPO::resolve).toList(),
                repeatsConfigs.stream().map(REPO::resolve).toList());
    StringWriter w = new StringWriter();
    new ValidationMarkdown().write(report, new PrintWriter(w));
    return new Validated(report, w.toString());
  }
}
