package io.topolens.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The training run of the JDK's ahead-of-time cache (JEP 483/514/515), made at package time: the
 * build runs this class once with {@code -XX:AOTCacheOutput}, so the classes the common commands
 * load, link and profile are in {@code topolens.aot} and {@code ./topolens} starts from them. It
 * runs those commands on the examples with their output dropped. Usage: {@code AotTraining
 * EXAMPLES_DIR}.
 */
final class AotTraining {
  private AotTraining() {}

  public static void main(String[] args) {
    Path examples = Path.of(args.length > 0 ? args[0] : "examples");
    String p2p = examples.resolve("h200-p2p").toString();
    List<String[]> commands =
        List.of(
            new String[] {"--version"},
            new String[] {"--help"},
            new String[] {"diagnose", p2p},
            new String[] {"diagnose", "--format", "json", p2p},
            new String[] {"diagnose", examples.resolve("h200-mixed").toString()},
            new String[] {"diagnose", examples.resolve("eks-efa-fallback").toString()},
            new String[] {"topo", examples.resolve("h200-bench/smi.txt").toString()},
            new String[] {"bench", examples.resolve("h200-bench").toString()});
    PrintStream out = System.out;
    PrintStream err = System.err;
    PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
    try {
      System.setOut(nowhere);
      System.setErr(nowhere);
      for (String[] command : commands) {
        Main.run(command);
      }
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    // as Main.main ends: System.exit looks up java.lang.Runtime's logger (about 25 JDK classes),
    // which the cache then holds instead of every command loading them from the JDK's modules
    System.exit(0);
  }
}
