package io.topolens.cli;

import io.topolens.diagnose.Preload;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
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
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:no error finding", "1:error findings", "2:usage error or unreadable input"})
public final class Main {

  /**
   * The subcommands by name, in the order help lists them. Not in {@code @Command(subcommands)}:
   * picocli reflects over every subcommand it is given (half a second of a small diagnose's
   * start-up), so a command line naming one gets only that one ({@link #commandLine}). MainTest
   * checks each name against its class's {@code @Command}.
   */
  static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

  /** Commands that look at their siblings (help lists them, completion writes them all). */
  private static final Set<String> NEED_ALL = Set.of("help", "completion");

  private static Map<String, Class<?>> subcommands() {
    Map<String, Class<?>> m = new LinkedHashMap<>();
    m.put("diagnose", DiagnoseCommand.class);
    m.put("topo", TopoCommand.class);
    m.put("bench", BenchCommand.class);
    m.put("predict", PredictCommand.class);
    m.put("compare", CompareCommand.class);
    m.put("validate-model", ValidateModelCommand.class);
    m.put("plan", PlanCommand.class);
    m.put("lint", LintCommand.class);
    m.put("run", RunCommand.class);
    m.put("report", ReportCommand.class);
    m.put("probe", ProbeCommand.class);
    m.put("experiment", ExperimentCommand.class);
    m.put("completion", CompletionCommand.class);
    m.put("help", CommandLine.HelpCommand.class);
    return Collections.unmodifiableMap(m);
  }

  /**
   * The command line for these arguments: with only the subcommand the first argument names, or
   * with all of them (no subcommand named, help, completion, or an unknown word picocli reports).
   */
  static CommandLine commandLine(String... args) {
    CommandLine cl = new CommandLine(new Main());
    String first = args.length == 0 ? null : args[0];
    if (first != null && SUBCOMMANDS.containsKey(first) && !NEED_ALL.contains(first)) {
      cl.addSubcommand(first, SUBCOMMANDS.get(first));
    } else {
      SUBCOMMANDS.forEach(cl::addSubcommand);
    }
    return cl;
  }

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
    if (args.length > 0 && args[0].equals("diagnose")) {
      // the command's annotations and its reading's tables are made on a second core while picocli
      // builds the command model
      Preload.start(
          () -> {
            CommandAnnotations.read(Main.class);
            CommandAnnotations.read(DiagnoseCommand.class);
          });
    }
    CommandLine cl = commandLine(args);
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
          // the fuzzer (docs/fuzzing.md) sets the property: an exception that reaches here is a
          // defect
          if (System.getenv("TOPOLENS_DEBUG") != null || Boolean.getBoolean("topolens.debug")) {
            ex.printStackTrace(line.getErr());
          }
          return 2;
        });
    try {
      return cl.execute(args);
    } catch (Error e) {
      // picocli passes Errors on; a job of tens of thousands of ranks can outgrow the default heap,
      // and the heap may run out while the JVM links a call site (a BootstrapMethodError whose
      // cause is the OutOfMemoryError)
      if (!outOfMemory(e)) {
        throw e;
      }
      System.err.println(
          "topolens: out of memory: the inputs need more than the "
              + Runtime.getRuntime().maxMemory() / (1 << 20)
              + " MiB of heap this JVM may use; run again with more, e.g."
              + " TOPOLENS_JAVA_OPTS=-Xmx8g");
      return 2;
    }
  }

  private static boolean outOfMemory(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      // a class whose initializer ran out of heap on another thread (the preload's) fails here as
      // NoClassDefFoundError, caused by the JVM's copy of that error, which names it only in its
      // message: "Exception java.lang.OutOfMemoryError: Java heap space [in thread ...]"
      if (t instanceof OutOfMemoryError
          || t instanceof ExceptionInInitializerError
              && t.getMessage() != null
              && t.getMessage().startsWith("Exception java.lang.OutOfMemoryError")) {
        return true;
      }
    }
    return false;
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
