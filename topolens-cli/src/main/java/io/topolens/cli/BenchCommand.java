package io.topolens.cli;

import io.topolens.bench.BenchFile;
import io.topolens.bench.BenchRun;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.diagnose.Severity;
import io.topolens.inputs.InputKind;
import io.topolens.inputs.Inputs;
import io.topolens.inputs.InputsReader;
import io.topolens.nccl.NcclLogReader;
import io.topolens.present.BenchComparison;
import io.topolens.present.BenchReport;
import io.topolens.report.Report;
import io.topolens.verdict.BenchAnalysis;
import io.topolens.verdict.BenchVerdict;
import io.topolens.verdict.Expectations;
import io.topolens.verdict.Hardware;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code topolens bench}: nccl-tests results, their peaks and verdicts, side by side. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Reads nccl-tests output (text or -J JSON), shows each run's table and peak busbw, and judges it against"
          + " the path it ran on (NCCL INFO lines in the same file) and the best path the hardware offers"
          + " (nvidia-smi topo -m or NCCL topology dumps given beside it, the catalog). Two or more runs are"
          + " also shown side by side."
    })
final class BenchCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "1..*",
      paramLabel = "PATH",
      description =
          "nccl-tests outputs, and optionally topology files (topo -m, NCCL XML) of the same machine; directories too.")
  List<String> paths;

  @Mixin JsonFormatOption format = new JsonFormatOption();

  @Option(names = "--summary", description = "Text: leave out the tables, show peaks and verdicts.")
  boolean summary;

  @Mixin HardwareOptions hardwareOptions = new HardwareOptions();

  @Mixin HtmlOption html = new HtmlOption();

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    HardwareOptions.Resolved hardware = hardwareOptions.resolve(err);
    if (hardware == null) {
      return 2;
    }
    HardwareCatalog catalog = hardware.catalog();
    Hardware hw = hardware.hardware();
    NcclLogReader logs = new NcclLogReader();
    Inputs in = new InputsReader(logs).read(paths);
    boolean bad = InputProblems.report(in, err);
    for (Inputs.Routed r : in.kinds()) {
      if (r.kind() == InputKind.NCCL_LOG && !InputProblems.unreadable(in, r.name())) {
        err.println("topolens: " + r.name() + ": no nccl-tests results table in it (ignored)");
      }
    }
    List<BenchRun> runs = in.benches().stream().flatMap(f -> f.runs().stream()).toList();
    for (BenchFile f : in.benches()) {
      if (f.runs().isEmpty()) {
        err.println("topolens: " + f.file() + ": no nccl-tests results table in it");
        bad = true;
      }
    }
    if (runs.isEmpty() || bad) {
      if (runs.isEmpty() && !bad) {
        err.println("topolens: no nccl-tests output among " + String.join(", ", paths));
      }
      return 2;
    }
    Expectations expect = new Expectations(catalog);
    List<BenchVerdict> verdicts = new BenchAnalysis(expect).judge(in, hw);
    BenchComparison cmp = runs.size() > 1 ? BenchComparison.of(runs) : null;
    BenchReport report = new BenchReport(in.benches(), verdicts, cmp);
    if (html.wanted()
        && !html.write(Report.builder("topolens bench").inputs(in).bench(verdicts), err)) {
      return 2;
    }
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    if (format.json()) {
      report.json(out);
    } else {
      report.text(out, !summary);
    }
    return verdicts.stream().anyMatch(v -> v.grade().severity() == Severity.ERROR) ? 1 : 0;
  }
}
