package io.topolens.cli;

import io.topolens.experiment.Experiment;
import io.topolens.lab.experiment.Experiments;
import io.topolens.lab.kube.ClusterSettings;
import io.topolens.nccl.InputProblem;
import io.topolens.report.Report;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code topolens experiment}: run a matrix of variants and compare them. */
@Command(
    name = "experiment",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Runs the variants of SPEC (layouts, nodes, networks, env overrides, offload, repeats; the probe,"
          + " a training command or both) one at a time, reads each one's logs as diagnose and bench"
          + " do, writes DIR/results.json and prints a comparison table (docs/experiment.md)."
    })
final class ExperimentCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SPEC.yaml", description = "The experiment spec.")
  Path specFile;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "DIR",
      description = "Where the variants' logs and results.json go.")
  Path out;

  @Option(
      names = "--resume",
      description = "Keep the variants DIR already holds finished (status ok); run the rest.")
  boolean resume;

  @Option(
      names = "--python",
      paramLabel = "PATH",
      description = "Python with torch (default: python3, then /usr/bin/python3).")
  String python;

  @Option(
      names = "--dry-run",
      description =
          "Kubernetes: write each variant's manifests under DIR and print them with lint's verdict;"
              + " apply nothing.")
  boolean dryRun;

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description = "Kubernetes: kubeconfig file (default: $KUBECONFIG, then ~/.kube/config).")
  Path kubeconfig;

  @Option(
      names = "--context",
      paramLabel = "NAME",
      description =
          "Kubernetes: kubeconfig context (default: the spec's context:, else the current).")
  String context;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      description = "Kubernetes: namespace (default: the spec's namespace:, else the context's).")
  String namespace;

  @Option(
      names = "--pending-timeout",
      paramLabel = "DURATION",
      defaultValue = "15m",
      description =
          "Kubernetes: a variant whose pods stay unscheduled this long fails with the reason"
              + " (default 15m).")
  String pendingTimeout;

  @Option(
      names = "--poll",
      paramLabel = "DURATION",
      defaultValue = "5s",
      description = "Kubernetes: how often jobs and pods are read (default 5s).")
  String poll;

  @Mixin HtmlOption html = new HtmlOption();

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ClusterSettings cluster;
    try {
      cluster =
          new ClusterSettings(
              kubeconfig,
              context,
              namespace,
              Durations.parse("--pending-timeout", pendingTimeout),
              Durations.parse("--poll", poll),
              dryRun);
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
    int code = Experiments.run(specFile, out, resume, python, cluster, stdout, err);
    if (dryRun) {
      return code;
    }
    if (code == 2 || code == Experiments.INTERRUPTED || !html.wanted()) {
      return code;
    }
    try {
      Report.Builder r =
          Report.builder("topolens experiment")
              .input(out.toString())
              .experiment(Experiment.read(out));
      if (!html.write(r, err)) {
        return 2;
      }
      err.println("topolens: wrote " + html.html);
      return code;
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
  }
}
