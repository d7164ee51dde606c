package io.topolens.cli;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.Measurements;
import io.topolens.kube.plan.Choice;
import io.topolens.kube.plan.Plan;
import io.topolens.kube.plan.Planner;
import io.topolens.kube.plan.Reasons;
import io.topolens.kube.settings.KubeSettings;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code topolens plan}: size a job from the catalog and write its manifests. */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Writes the manifests of a multi-GPU training or nccl-tests job (Kubeflow TrainJob, PyTorchJob,"
          + " MPIJob) sized from the hardware catalog: one pod per node with all its GPUs, EFA and huge"
          + " pages, /dev/shm, memory and CPU, NCCL debug variables. Every choice carries its reason as a"
          + " YAML comment; --explain lists them."
    })
final class PlanCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin PlanOptions plan;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write the manifests to FILE instead of standard output.")
  Path output;

  @Option(
      names = "--explain",
      description = "Print every choice and its reason instead of the manifests.")
  boolean explain;

  @Option(
      names = "--catalog",
      paramLabel = "FILE",
      description = "Hardware catalog file that adds or replaces instance types (repeatable).")
  List<Path> catalogs = List.of();

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    Plan p;
    try {
      p =
          new Planner(
                  HardwareCatalog.load(catalogs), KubeSettings.bundled(), Measurements.bundled())
              .plan(plan.request().toSpec());
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
    for (String w : p.warnings()) {
      err.println("topolens: warning: " + w);
    }
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    if (explain) {
      out.println(p.summary());
      for (Choice c : p.choices()) {
        out.println();
        out.println(c.field() + " = " + c.value());
        out.println("  " + c.why());
      }
      out.println();
      out.println("Every commented field of the manifests:");
      for (Reasons.Reason r : Reasons.of(p)) {
        out.println();
        out.println(r.path() + (r.value() == null ? "" : " = " + r.value()));
        out.println("  " + r.why());
      }
      out.flush();
      return 0;
    }
    if (output != null) {
      try {
        Files.writeString(output, p.yaml(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        err.println("topolens: cannot write " + output + ": " + e.getMessage());
        return 2;
      }
      err.println("topolens: wrote " + output + " (" + p.summary() + ")");
    } else {
      out.print(p.yaml());
      out.flush();
    }
    return 0;
  }
}
