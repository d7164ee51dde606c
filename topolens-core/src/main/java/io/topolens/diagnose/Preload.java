package io.topolens.diagnose;

import com.fasterxml.jackson.core.base.ParserMinimalBase;
import io.topolens.catalog.KnownNcclBug;
import io.topolens.catalog.NcclEnv;
import io.topolens.nccl.NcclLogReader;

/**
 * Starts, on a daemon thread, the class initialization a diagnose does first in its reading and its
 * rules: the line filter's needle tables and NCCL's failure texts ({@link NcclLogReader#prepare}),
 * Jackson's parser of the JSON step lines (whose base class initializes {@code BigDecimal} and
 * {@code BigInteger}), the bundled known-bug and env catalogs. A command starts it before picocli
 * builds its command model, so on a second core the two overlap: about 35 ms of a small diagnose's
 * 200 (docs/performance.md, start-up's fifth pass). Class initialization runs once per JVM and is
 * thread-safe: a reader that needs a class first waits for it or makes it itself, and nothing here
 * changes what a diagnose computes.
 */
public final class Preload {
  private Preload() {}

  /**
   * Starts the thread, which runs {@code first} (the caller's own preparation) first, and returns.
   */
  public static void start(Runnable first) {
    Thread t =
        new Thread(
            () -> {
              try {
                first.run();
              } catch (RuntimeException | LinkageError e) {
                // what first prepares is made again, and any error met, where it is needed
              }
              run();
            },
            "topolens-preload");
    t.setDaemon(true);
    // Nothing this thread meets is reported from here, not even an OutOfMemoryError in a class's
    // initializer under a heap too small for the job: the thread that needs the class meets it
    // again and reports it as the one-line error (the JVM's default handler would print a stack
    // trace beside it).
    t.setUncaughtExceptionHandler((thread, e) -> {});
    t.start();
  }

  private static void run() {
    NcclLogReader.prepare();
    initialize(ParserMinimalBase.class);
    initialize(KnownNcclBug.class);
    initialize(NcclEnv.class);
    Diagnoser.standard();
    // the report's first String.format loads the default locale's number formats
    String.format("%.2f", 0.5);
  }

  private static void initialize(Class<?> c) {
    try {
      Class.forName(c.getName(), true, c.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      // the reader or rule that needs the class meets the same error in its own thread and reports
      // it
    }
  }
}
