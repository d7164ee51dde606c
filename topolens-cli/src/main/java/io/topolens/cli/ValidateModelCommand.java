package io.topolens.cli;

import io.topolens.nccl.InputProblem;
import io.topolens.perf.ModelValidation;
import io.topolens.perf.ValidationReport;
import io.topolens.present.ValidationMarkdown;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code topolens validate-model}: regenerates docs/model-validation.md from the measured data. */
@Command(
    name = "validate-model",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Runs the performance model against the H200 fixtures (nccl-tests, FSDP step times) and the"
          + " seeds' job times, and writes the comparison as Markdown."
    })
final class ValidateModelCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--fixtures",
      paramLabel = "DIR",
      description = "The h200x4 fixtures (default: ${DEFAULT-VALUE}).",
      defaultValue = "topolens-core/src/test/resources/fixtures/h200x4")
  Path fixtures;

  @Option(
      names = "--examples",
      paramLabel = "DIR",
      description =
          "seed-runs.yaml, h200-fsdp.yaml, h200x4-catalog.json (default: ${DEFAULT-VALUE}).",
      defaultValue = "examples/perf")
  Path examples;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Where to write the Markdown (default: standard output).")
  Path out;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    for (Path dir : new Path[] {fixtures, examples}) {
      if (!Files.isDirectory(dir)) {
        err.println(
            "topolens: "
                + dir
                + ": no such directory (run from the repository root, or give --fixtures/--examples)");
        return 2;
      }
    }
    ValidationReport report;
    try {
      report = ModelValidation.standard().run(fixtures, examples);
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
    if (out == null) {
      PrintWriter w = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
      new ValidationMarkdown().write(report, w);
      w.flush();
    } else {
      try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
        new ValidationMarkdown().write(report, w);
      }
    }
    return 0;
  }
}
