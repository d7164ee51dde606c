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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code topolens validate-model}: regenerates docs/model-validation.md from the measured data. */
@Command(
    name = "validate-model",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Runs the performance model against measurements and writes predicted against measured,"
          + " with the error on data left out of each fit, as Markdown: one-GPU step times (the"
          + " PATHs: output of bench/fsdp-step.py, cpu-adam.py, gpu-micro.py, files or folders),"
          + " the nccl-tests and FSDP step logs of --fixtures, the seeds' job times."
    })
final class ValidateModelCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(
      paramLabel = "PATH",
      arity = "0..*",
      description =
          "One-GPU measurements: JSON lines of bench/fsdp-step.py, cpu-adam.py and gpu-micro.py,"
              + " and the host-threads sweep of bench/host-threads.py (told apart by their keys),"
              + " files or folders.")
  List<Path> oneGpu = new ArrayList<>();

  @Option(
      names = "--fixtures",
      paramLabel = "DIR",
      description =
          "nccl-tests outputs with NCCL INFO lines, and fsdp/ with step logs (default:"
              + " ${DEFAULT-VALUE}).",
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
      names = "--experiment",
      paramLabel = "RESULTS_JSON",
      description =
          "An experiment's results.json (topolens experiment): its measured steps against the runs"
              + " of the same names in --experiment-config (repeatable: the n-th --experiment goes"
              + " with the n-th --experiment-config).")
  List<Path> experiments = new ArrayList<>();

  @Option(
      names = "--experiment-config",
      paramLabel = "FILE",
      description =
          "The runs (predict's YAML) the experiment's variants are, by name (repeatable).")
  List<Path> experimentConfigs = new ArrayList<>();

  @Option(
      names = "--repeats",
      paramLabel = "DIR",
      description =
          "A folder of one experiment run several times on one machine (every results.json under"
              + " it): how far its steps and ratios spread between runs, each run judged on its"
              + " own (repeatable: the n-th --repeats goes with the n-th --repeats-config).")
  List<Path> repeats = new ArrayList<>();

  @Option(
      names = "--repeats-config",
      paramLabel = "FILE",
      description = "The runs (predict's YAML) the repeated variants are, by name (repeatable).")
  List<Path> repeatsConfigs = new ArrayList<>();

  @Option(
      names = "--launch",
      paramLabel = "RESULTS_JSON",
      description =
          "An experiment's results.json whose probes measured the host's launch speed (the"
              + " probe's launch line): each measured step predicted with the probe's launch speed"
              + " and with the fit host's (repeatable: the n-th --launch goes with the n-th"
              + " --launch-config).")
  List<Path> launch = new ArrayList<>();

  @Option(
      names = "--launch-config",
      paramLabel = "FILE",
      description = "The runs (predict's YAML) the --launch variants are, by name (repeatable).")
  List<Path> launchConfigs = new ArrayList<>();

  @Option(
      names = "--catalog",
      paramLabel = "FILE",
      description = "Add or replace catalog entries (repeatable), e.g. the experiment's machine.")
  List<Path> catalogs = new ArrayList<>();

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
      if (experiments.size() != experimentConfigs.size()) {
        err.println(
            "topolens: --experiment and --experiment-config go together, one of each per"
                + " experiment");
        return 2;
      }
      report =
          new ModelValidation(
                  io.topolens.catalog.HardwareCatalog.load(catalogs),
                  io.topolens.perf.PerfConstants.bundled(),
                  io.topolens.perf.Calibrator.standard())
              .run(
                  fixtures,
                  examples,
                  oneGpu,
                  experiments,
                  experimentConfigs,
                  repeats,
                  repeatsConfigs,
                  launch,
                  launchConfigs);
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
