package io.topolens.fuzz;

import io.topolens.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run of {@code io.topolens.cli.Main} in-process, its stdout and stderr captured (the first 64
 * KB of each), on a thread of its own so that a hang is cut at the timeout. A thread past its
 * timeout is left behind (Java cannot stop it); the fuzzer stops after a few.
 */
record CliCall(
    List<String> args,
    int code,
    String out,
    String err,
    Throwable thrown,
    boolean timedOut,
    long millis) {

  /** Runs with {@code stdin} as standard input (read when an argument is {@code -}). */
  static CliCall run(List<String> args, byte[] stdin, long timeoutMs) {
    Capture out = new Capture();
    Capture err = new Capture();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    int[] code = {-1};
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    long start = System.nanoTime();
    Thread t =
        Thread.ofPlatform()
            .daemon()
            .name("fuzz-" + args.getFirst())
            .unstarted(
                () -> {
                  try {
                    code[0] = Main.run(args.toArray(String[]::new));
                  } catch (Throwable e) {
                    thrown.set(e);
                  }
                });
    boolean timedOut;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      System.setIn(new ByteArrayInputStream(stdin));
      t.start();
      t.join(timeoutMs);
      timedOut = t.isAlive();
      if (timedOut) {
        t.interrupt();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      timedOut = true;
    } finally {
      System.out.flush();
      System.err.flush();
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    long ms = (System.nanoTime() - start) / 1_000_000;
    return new CliCall(args, code[0], out.text(), err.text(), thrown.get(), timedOut, ms);
  }

  /** Keeps the first 64 KB written; counts the rest. */
  private static final class Capture extends OutputStream {
    private static final int KEEP = 64 << 10;
    private final byte[] buf = new byte[KEEP];
    private int n;
    private long more;

    @Override
    public synchronized void write(int b) {
      if (n < KEEP) {
        buf[n++] = (byte) b;
      } else {
        more++;
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      int keep = Math.min(len, KEEP - n);
      System.arraycopy(b, off, buf, n, keep);
      n += keep;
      more += len - keep;
    }

    synchronized String text() {
      String s = new String(buf, 0, n, StandardCharsets.UTF_8);
      return more == 0 ? s : s + "\n[... " + more + " more bytes]";
    }
  }
}
