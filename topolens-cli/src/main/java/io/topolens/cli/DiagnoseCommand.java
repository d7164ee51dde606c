package io.topolens.cli;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.diagnose.Diagnoser;
import io.topolens.diagnose.Diagnosis;
import io.topolens.diagnose.Severity;
import io.topolens.inputs.Inputs;
import io.topolens.inputs.InputsReader;
import io.topolens.model.Cluster;
import io.topolens.model.InputFile;
import io.topolens.model.Job;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.NcclLogReader;
import io.topolens.placement.NodeMap;
import io.topolens.present.JsonReport;
import io.topolens.present.TextReport;
import io.topolens.report.Report;
import io.topolens.verdict.BenchAnalysis;
import io.topolens.verdict.BenchVerdict;
import io.topolens.verdict.Expectations;
import io.topolens.verdict.Hardware;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code topolens diagnose}: read, judge, present. */
@Command(
    name = "diagnose",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Reads NCCL_DEBUG=INFO logs (files, directories, '-' for stdin, .gz), rebuilds which path NCCL took between"
          + " every pair of GPUs and reports what is wrong, with evidence and fixes. nvidia-smi topology, NCCL"
          + " topology/graph dumps and nccl-tests outputs among the inputs are recognised by content and judged"
          + " with the logs."
    })
final class DiagnoseCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "0..*",
      paramLabel = "PATH",
      description =
          "Log files, directories (logs, topo -m, NCCL XML dumps, nccl-tests outputs, mixed), a folder"
              + " saved by --save, or - for standard input.")
  List<String> paths;

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Mixin JsonFormatOption format = new JsonFormatOption();

  @Mixin MinSeverityOption minSeverity = new MinSeverityOption();

  @Option(
      names = "--node-map",
      paramLabel = "FILE",
      description = "Pod-to-node map (\"POD NODE\" per line) so pods sharing a host are known.")
  Path nodeMap;

  @Option(
      names = "--fold-channels",
      description = "JSON: one edge per connection with a channels list, not one per channel.")
  boolean foldChannels;

  @Option(
      names = {"-v", "--verbose"},
      description = "Text: list every communicator and the unrecognized lines.")
  boolean verbose;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Parser threads (default: one per core).")
  Integer threads;

  @Mixin HardwareOptions hardwareOptions = new HardwareOptions();

  @Mixin HtmlOption html = new HtmlOption();

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    Severity min = minSeverity.parse(err);
    if (min == null) {
      return 2;
    }
    HardwareOptions.Resolved hardware = hardwareOptions.resolve(err);
    if (hardware == null) {
      return 2;
    }
    if (threads != null && threads < 1) {
      err.println("topolens: --threads must be at least 1, not " + threads);
      return 2;
    }
    ClusterOptions.Source source;
    try {
      source = cluster.open(paths, nodeMap, hardware.catalog(), err);
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
    try (source) {
      paths = source.paths();
      nodeMap = source.nodeMap();
      if (source.instance() != null && hardwareOptions.instance == null) {
        hardwareOptions.instance = source.instance();
        hardware = hardwareOptions.resolve(err);
      }
      return diagnose(
          min,
          hardware,
          source.collection() == null ? Cluster.NONE : source.collection().cluster(),
          err);
    }
  }

  private int diagnose(
      Severity min, HardwareOptions.Resolved hardware, Cluster cluster, PrintWriter err)
      throws IOException {
    HardwareCatalog catalog = hardware.catalog();
    Hardware hw = hardware.hardware();
    NcclLogReader reader = threads == null ? new NcclLogReader() : new NcclLogReader(threads);
    Inputs in = new InputsReader(reader).read(paths);
    Job job = in.job();
    if (nodeMap != null) {
      try {
        job = job.withNodes(NodeMap.read(nodeMap));
      } catch (InputProblem e) {
        err.println("topolens: " + e.getMessage());
        return 2;
      }
    }
    boolean unreadable = !in.problems().isEmpty();
    InputProblems.report(in, err);
    long nccl = job.inputs().stream().mapToLong(InputFile::ncclLines).sum();
    boolean beside = !in.smi().isEmpty() || !in.topologies().isEmpty() || !in.benches().isEmpty();
    if (nccl == 0 && !beside) {
      List<String> read =
          job.inputs().stream().filter(f -> f.problem() == null).map(InputFile::name).toList();
      if (!read.isEmpty() && !unreadable) {
        err.println(
            "topolens: no NCCL lines in "
                + String.join(", ", read)
                + " (run the job with NCCL_DEBUG=INFO)");
      } else if (job.inputs().isEmpty() && !unreadable) {
        err.println("topolens: no files to read in " + String.join(", ", paths));
      }
      return 2;
    }
    List<BenchVerdict> verdicts = new BenchAnalysis(new Expectations(catalog)).judge(in, hw);
    if (format.json() && !html.wanted()) {
      // the rules run on the other core while the job's part of the document is written
      Supplier<Diagnosis> judged =
          Diagnoser.standard().diagnoseAside(job, in, verdicts, cluster, catalog);
      new JsonReport(foldChannels).write(job, () -> judged.get().atLeast(min), System.out);
      return judged.get().hasErrors() ? 1 : 0;
    }
    Diagnosis d = Diagnoser.standard().diagnose(job, in, verdicts, cluster, catalog);
    Diagnosis shown = d.atLeast(min);
    if (html.wanted()
        && !html.write(
            Report.builder("topolens diagnose").inputs(in).diagnosis(shown).bench(verdicts), err)) {
      return 2;
    }
    if (format.json()) {
      new JsonReport(foldChannels).write(shown, System.out);
    } else {
      new TextReport(verbose)
          .write(
              shown, new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
    }
    return d.hasErrors() ? 1 : 0;
  }
}
