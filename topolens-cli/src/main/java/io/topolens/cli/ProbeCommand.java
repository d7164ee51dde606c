package io.topolens.cli;

import io.topolens.lab.probe.LocalProbe;
import io.topolens.lab.probe.ProbeScript;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code topolens probe}: the collective probe, handed out or run on this host. */
@Command(
    name = "probe",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "The collective probe: a Python program (torch.distributed, NCCL on GPUs, gloo on CPUs) that prints"
          + " nccl-tests' tables under torchrun or any env:// launcher. --script prints it, --write saves it,"
          + " --local N runs it as N ranks on this host; arguments after -- go to the probe (docs/probe.md)."
    })
final class ProbeCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @ArgGroup(multiplicity = "1")
  Mode mode;

  static final class Mode {
    @Option(names = "--script", description = "Print the probe program on stdout.")
    boolean script;

    @Option(
        names = "--write",
        paramLabel = "DIR",
        description = "Write the program as DIR/probe.py.")
    Path write;

    @Option(
        names = "--local",
        paramLabel = "N",
        description = "Run the probe as N env:// ranks on this host; rank 0's output is shown.")
    Integer local;
  }

  @Option(
      names = "--python",
      paramLabel = "PATH",
      description = "Python with torch for --local (default: python3, then /usr/bin/python3).")
  String python;

  @Option(
      names = "--logs",
      paramLabel = "DIR",
      description =
          "--local: keep the script and every rank's output here (default: a new temp dir).")
  Path logs;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "1800",
      description = "--local: kill the ranks after this long (default: ${DEFAULT-VALUE}).")
  long timeout;

  @Parameters(
      paramLabel = "PROBE_ARGS",
      description = "--local: the probe's own arguments, after -- (e.g. -- -b 8 -e 1M --pairs).")
  List<String> probeArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (mode.script) {
      out.print(ProbeScript.text());
      out.flush();
      return 0;
    }
    if (mode.write != null) {
      out.println(ProbeScript.writeTo(mode.write));
      out.flush();
      return 0;
    }
    return new LocalProbe(python, mode.local, probeArgs, Duration.ofSeconds(timeout))
        .run(logs, out, err);
  }
}
