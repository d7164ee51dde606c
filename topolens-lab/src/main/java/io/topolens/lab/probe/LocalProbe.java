package io.topolens.lab.probe;

import io.topolens.lab.PythonFinder;
import io.topolens.lab.local.LocalLauncher;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code topolens probe --local N}: the probe as N env:// ranks on this host, rank 0's stdout and
 * stderr passed through as they come, the other ranks' kept in the log directory.
 */
public final class LocalProbe {

  private final String python;
  private final int ranks;
  private final List<String> probeArgs;
  private final Duration timeout;

  /**
   * @param python the interpreter the user named, or null to let {@link PythonFinder} choose
   * @param probeArgs the probe's own arguments, passed through unchanged
   */
  public LocalProbe(String python, int ranks, List<String> probeArgs, Duration timeout) {
    this.python = python;
    this.ranks = ranks;
    this.probeArgs = List.copyOf(probeArgs);
    this.timeout = timeout;
  }

  /**
   * Runs the probe; writes the script and every rank's output under {@code logs} (a new temporary
   * directory when null).
   *
   * @return 0 when every rank succeeded, 2 when no Python with torch was found, else 1
   */
  public int run(Path logs, PrintWriter out, PrintWriter err)
      throws IOException, InterruptedException {
    if (ranks < 1) {
      err.println("topolens: --local must be 1 or more, not " + ranks);
      return 2;
    }
    PythonFinder.Python py = new PythonFinder(python).findOrSay(err);
    if (py == null) {
      return 2;
    }
    Path dir = logs != null ? logs : Files.createTempDirectory("topolens-probe");
    Path script = ProbeScript.writeTo(dir);
    List<String> command = new ArrayList<>(List.of(py.command(), script.toString()));
    command.addAll(probeArgs);
    LocalLauncher.Result r =
        new LocalLauncher(command, ranks)
            .timeout(timeout)
            .followRank0(
                line -> {
                  out.println(line);
                  out.flush();
                },
                line -> {
                  err.println(line);
                  err.flush();
                })
            .run(dir);
    if (r.ok()) {
      return 0;
    }
    if (r.timedOut()) {
      err.println(
          "topolens: the probe did not finish in " + timeout.toSeconds() + " s; logs in " + dir);
    } else {
      err.println("topolens: probe " + r.failure() + "; logs in " + dir);
    }
    return 1;
  }
}
