package io.topolens.cli;

import io.topolens.nccl.InputProblem;
import io.topolens.report.ReportSources;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code topolens report}: one self-contained HTML file of what the inputs show. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Writes one self-contained HTML file (no network requests, printable) of what diagnose, bench,"
          + " compare and an experiment show: summary, transport map, bandwidth against the catalog's"
          + " rate, step-time breakdown, findings with evidence."
    })
final class ReportCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "0..*",
      paramLabel = "PATH",
      description =
          "What diagnose takes (logs, topo -m, NCCL XML dumps, nccl-tests outputs, folders of them), or an"
              + " experiment folder (with results.json).")
  List<String> paths = new ArrayList<>();

  @Option(
      names = {"-o", "--output"},
      required = true,
      paramLabel = "FILE.html",
      description = "The HTML file to write.")
  Path output;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "A compare configuration (YAML): its runs' predicted step breakdown and measured times.")
  Path config;

  @Mixin HardwareOptions hardwareOptions = new HardwareOptions();

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (paths.isEmpty() && config == null) {
      err.println("topolens: nothing to report: give inputs (PATH...) and/or --config FILE");
      return 2;
    }
    HardwareOptions.Resolved hw = hardwareOptions.resolve(err);
    if (hw == null) {
      return 2;
    }
    try {
      ReportSources.Read read = ReportSources.read(paths, config, hw.catalog(), hw.hardware());
      boolean bad = read.inputs() != null && InputProblems.report(read.inputs(), err);
      if (read.report() == null) {
        if (!bad) {
          err.println("topolens: nothing to draw in " + String.join(", ", paths));
        }
        return 2;
      }
      if (!HtmlOption.write(read.report(), output, err)) {
        return 2;
      }
      err.println("topolens: wrote " + output);
      return bad ? 2 : 0;
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
  }
}
