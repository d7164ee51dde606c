package io.topolens.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs {@link Main#run} with System.out/err (and in) swapped for buffers. */
final class Cli {
  private Cli() {}

  /** What one run left behind. */
  record Result(int code, String out, String err) {
    List<String> errLines() {
      return err.lines().filter(l -> !l.isBlank()).toList();
    }
  }

  static Result run(String... args) {
    return run(null, args);
  }

  static synchronized Result run(byte[] stdin, String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    InputStream oldIn = System.in;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      if (stdin != null) {
        System.setIn(new ByteArrayInputStream(stdin));
      }
      code = Main.run(args);
    } finally {
      System.out.flush();
      System.err.flush();
      System.setOut(oldOut);
      System.setErr(oldErr);
      System.setIn(oldIn);
    }
    return new Result(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** {@code examples/k8s/<path>} from the module directory tests run in. */
  static String example(String path) {
    java.nio.file.Path here = java.nio.file.Path.of("").toAbsolutePath();
    java.nio.file.Path root =
        java.nio.file.Files.isDirectory(here.resolve("examples")) ? here : here.getParent();
    return root.resolve("examples/k8s").resolve(path).toString();
  }
}
