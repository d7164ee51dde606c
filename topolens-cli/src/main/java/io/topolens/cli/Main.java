package io.topolens.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code topolens} command: a front end only; every subcommand calls the core modules. */
@Command(
    name = "topolens",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    versionProvider = Main.Version.class,
    description =
        "Reads NCCL logs of multi-GPU training jobs and says which paths NCCL took and what is wrong.",
    subcommands = {
      DiagnoseCommand.class,
      TopoCommand.class,
      BenchCommand.class,
      PredictCommand.class,
      CompareCommand.class,
      ValidateModelCommand.class,
      PlanCommand.class,
      LintCommand.class,
      RunCommand.class,
      ReportCommand.class,
      ProbeCommand.class,
      ExperimentCommand.class,
      CompletionCommand.class,
      CommandLine.HelpCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:no error finding", "1:error findings", "2:usage error or unreadable input"})
public final class Main {

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code (tests call this). */
  public static int run(String... args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      // answered before picocli loads: its classes (Java 5 class files) stay out of the AOT cache
      System.out.println(Version.text());
      System.out.flush();
      return 0;
    }
    // fabric8 logs through SLF4J, which warns on stderr when no logger is bound: keep stderr to our
    // lines
    if (System.getProperty("slf4j.internal.verbosity") == null) {
      System.setProperty("slf4j.internal.verbosity", "ERROR");
    }
    CommandLine cl = new CommandLine(new Main());
    // every command answers -V/--version as README promises, with the top-level version line
    cl.getSubcommands()
        .values()
        .forEach(sub -> sub.getCommandSpec().versionProvider(new Version()));
    cl.setExecutionExceptionHandler(
        (ex, line, parse) -> {
          line.getErr()
              .println(
                  "topolens: "
                      + (ex.getMessage() == null
                          ? ex.getClass().getSimpleName()
                          : ex.getMessage()));
          if (System.getenv("TOPOLENS_DEBUG") != null) {
            ex.printStackTrace(line.getErr());
          }
          return 2;
        });
    return cl.execute(args);
  }

  /** Prints the version from the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {text()};
    }

    static String text() {
      String v = Main.class.getPackage().getImplementationVersion();
      return "topolens " + (v == null ? "dev" : v);
    }
  }
}
