package io.topolens.cli;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.inputs.InputKind;
import io.topolens.inputs.Inputs;
import io.topolens.inputs.InputsReader;
import io.topolens.nccl.NcclLogReader;
import io.topolens.present.TopoReport;
import io.topolens.verdict.BenchAnalysis;
import io.topolens.verdict.Expectations;
import io.topolens.verdict.Hardware;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code topolens topo}: which paths the machine offers between its GPUs and NICs. */
@Command(
    name = "topo",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Reads nvidia-smi output (topo -m, topo -p2p, nvlink -s, the GPU table) and NCCL's topology and graph"
          + " dumps (NCCL_TOPO_DUMP_FILE, NCCL_GRAPH_DUMP_FILE), and shows the link class of every device pair,"
          + " which GPU pairs have which path and what it offers (catalog), NIC-GPU affinity, and NCCL's graphs."
    })
final class TopoCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "PATH", description = "Topology files or directories.")
  List<String> paths;

  @Mixin JsonFormatOption format = new JsonFormatOption();

  @Mixin HardwareOptions hardwareOptions = new HardwareOptions();

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    HardwareOptions.Resolved hardware = hardwareOptions.resolve(err);
    if (hardware == null) {
      return 2;
    }
    HardwareCatalog catalog = hardware.catalog();
    Hardware hw = hardware.hardware();
    Inputs in = new InputsReader(new NcclLogReader(1)).read(paths);
    boolean bad = InputProblems.report(in, err);
    for (Inputs.Routed r : in.kinds()) {
      if ((r.kind() == InputKind.NCCL_LOG || r.kind() == InputKind.NCCL_TESTS)
          && !InputProblems.unreadable(in, r.name())) {
        err.println(
            "topolens: "
                + r.name()
                + ": not a topology file (nvidia-smi topo -m / -p2p, or an NCCL topology or graph XML dump)");
        bad = true;
      }
    }
    if (bad) {
      return 2;
    }
    if (in.smi().stream().allMatch(r -> r.isEmpty())
        && in.topologies().isEmpty()
        && in.graphs().isEmpty()) {
      err.println("topolens: no topology found in " + String.join(", ", paths));
      return 2;
    }
    Expectations expect = new Expectations(catalog);
    Hardware full = BenchAnalysis.completeHardware(in, hw, expect);
    TopoReport report = new TopoReport(in.smi(), in.topologies(), in.graphs(), full.gpu());
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    if (format.json()) {
      report.json(out);
    } else {
      report.text(out);
    }
    return 0;
  }
}
