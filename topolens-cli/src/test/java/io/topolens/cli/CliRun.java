package io.topolens.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** Runs topolens in-process with stdout and stderr captured. */
record CliRun(int code, String out, String err) {

  /** The core module's real fixtures, reached from the CLI module's working directory. */
  static final Path CORE_RESOURCES =
      Path.of("../topolens-core/src/test/resources").toAbsolutePath();

  static String fixture(String resource) {
    return CORE_RESOURCES.resolve(resource).normalize().toString();
  }

  List<String> errLines() {
    return err.lines().filter(l -> !l.isBlank()).toList();
  }

  /** {@code examples/k8s/<path>} of the repository, reached from the CLI module's directory. */
  static String example(String path) {
    return Path.of("../examples/k8s").resolve(path).toAbsolutePath().normalize().toString();
  }

  static CliRun of(String... args) {
    return of(null, args);
  }

  /** Runs with {@code stdin} (when not null) as standard input. */
  static synchronized CliRun of(byte[] stdin, String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    java.io.InputStream oldIn = System.in;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      if (stdin != null) {
        System.setIn(new java.io.ByteArrayInputStream(stdin));
      }
      code = Main.run(args);
    } finally {
      System.out.flush();
      System.err.flush();
      System.setOut(oldOut);
      System.setErr(oldErr);
      System.setIn(oldIn);
    }
    return new CliRun(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
