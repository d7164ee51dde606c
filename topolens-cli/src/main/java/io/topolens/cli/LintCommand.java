package io.topolens.cli;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.Measurements;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintResult;
import io.topolens.kube.lint.ManifestLint;
import io.topolens.kube.model.OffloadMode;
import io.topolens.kube.model.TrainerRelease;
import io.topolens.kube.present.LintJsonReport;
import io.topolens.kube.present.LintSarifReport;
import io.topolens.kube.present.LintTextReport;
import io.topolens.kube.settings.KubeSettings;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code topolens lint}: read manifests, judge them, present the findings. */
@Command(
    name = "lint",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Checks Kubernetes training job manifests (TrainJob, Trainer runtimes, PyTorchJob, MPIJob, JobSet,"
          + " Job, Pod) for what makes multi-GPU jobs slow or broken: pods per GPU, EFA, processes per"
          + " pod, /dev/shm, memory for CPU offload, huge pages, NCCL and EFA variables, privileges."
          + " Every finding has an id (docs/lint.md), evidence (file:line) and a fix."
    })
final class LintCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "1..*",
      paramLabel = "FILE",
      description =
          "Manifest files (YAML, several documents each), directories of them (*.yaml, *.yml), or - for"
              + " standard input.")
  List<String> files;

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "text (default), json or sarif (SARIF 2.1.0; see docs/lint.md).")
  LintFormat format;

  @Mixin MinSeverityOption minSeverity = new MinSeverityOption();

  @Option(
      names = "--instance",
      paramLabel = "TYPE",
      description = "Instance type for pods that pin none (p4d.24xlarge).")
  String instance;

  @Option(
      names = "--trainer-version",
      paramLabel = "VERSION",
      description =
          "Kubeflow Trainer release the cluster runs (default 2.3; 2.1 for podTemplateOverrides).")
  String trainerVersion;

  @Option(
      names = "--params",
      paramLabel = "N",
      description =
          "Model parameters for the CPU-offload memory check (8e9, 8B, 70B); default: read from the manifest.")
  String params;

  @Option(
      names = "--offload",
      paramLabel = "WHAT",
      description =
          "What the job offloads to host memory: none, optimizer or params; default: read from the manifest.")
  String offload;

  @Option(
      names = "--var",
      paramLabel = "NAME=VALUE",
      description = "Substitute $${NAME} and $NAME as envsubst would (repeatable).")
  Map<String, String> vars = new LinkedHashMap<>();

  @Option(
      names = "--catalog",
      paramLabel = "FILE",
      description =
          "Hardware catalog file that adds or replaces instance types (repeatable; docs/catalog.md).")
  List<Path> catalogs = List.of();

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    LintContext ctx;
    Severity min = minSeverity.parse(err);
    if (min == null) {
      return 2;
    }
    try {
      HardwareCatalog catalog = HardwareCatalog.load(catalogs);
      TrainerRelease release =
          trainerVersion == null ? TrainerRelease.V2_3 : TrainerRelease.parse(trainerVersion);
      ctx =
          new LintContext(
              catalog,
              KubeSettings.bundled(),
              Measurements.bundled(),
              release,
              trainerVersion != null,
              instance,
              params == null ? null : io.topolens.kube.plan.PlanRequest.params(params),
              offload == null ? null : OffloadMode.parse(offload));
      if (instance != null && catalog.instance(instance).isEmpty()) {
        err.println(
            "topolens: --instance "
                + instance
                + " is not in the hardware catalog (add it with --catalog FILE)");
        return 2;
      }
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    } catch (IllegalArgumentException e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
    LintResult r = new ManifestLint(ctx, vars).lint(expand(files)).atLeast(Severity.INFO);
    for (String p : r.problems()) {
      err.println("topolens: " + p);
    }
    if (r.workloads().isEmpty()) {
      if (r.problems().isEmpty()) {
        err.println(
            "topolens: no TrainJob, runtime, PyTorchJob, MPIJob, JobSet, Job or Pod in "
                + String.join(", ", files));
      }
      return 2;
    }
    boolean errors = r.hasErrors();
    LintResult shown = r.atLeast(min);
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    if (format == LintFormat.json) {
      new LintJsonReport().write(shown, out);
      out.println();
      out.flush();
    } else if (format == LintFormat.sarif) {
      new LintSarifReport(new Main.Version().getVersion()[0].replace("topolens ", ""))
          .write(shown, out);
      out.println();
      out.flush();
    } else {
      new LintTextReport().write(shown, out);
    }
    return !r.problems().isEmpty() ? 2 : errors ? 1 : 0;
  }

  /**
   * Directories stand for the YAML files under them, sorted; anything else is passed on as given.
   */
  static List<String> expand(List<String> args) {
    List<String> out = new java.util.ArrayList<>();
    for (String a : args) {
      java.nio.file.Path p = java.nio.file.Path.of(a);
      if (!a.equals("-") && java.nio.file.Files.isDirectory(p)) {
        try (var walk = java.nio.file.Files.walk(p)) {
          walk.filter(java.nio.file.Files::isRegularFile)
              .map(java.nio.file.Path::toString)
              .filter(f -> f.endsWith(".yaml") || f.endsWith(".yml"))
              .filter(f -> !java.nio.file.Path.of(f).getFileName().toString().startsWith("."))
              .sorted()
              .forEach(out::add);
        } catch (java.io.IOException | RuntimeException e) {
          out.add(a); // the reader reports it in its own words
        }
      } else {
        out.add(a);
      }
    }
    return out;
  }
}
