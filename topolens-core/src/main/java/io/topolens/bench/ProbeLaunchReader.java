package io.topolens.bench;

import io.topolens.model.Evidence;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.LogInput;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the probe's launch line ({@code # topolens-probe launch: kernel 7.77 us/op, nccl 16.56
 * us/op, layer 653.00 us/op; median of 1 ranks, each the median of 5 rounds of 200 ops}) from a
 * probe output, wherever a launcher's prefix put it in the line. The last such line of the file
 * wins; one that is not whole is an {@link InputProblem} naming its file and line, never passed
 * over.
 */
public final class ProbeLaunchReader {
  private static final Pattern LINE =
      Pattern.compile(
          "# topolens-probe launch: (.*?); median of (\\d+) ranks?, each the median of (\\d+)"
              + " rounds of (\\d+) ops");
  private static final Pattern OP = Pattern.compile("(\\w+) ([0-9.]+(?:[eE][-+]?\\d+)?) us/op");

  /**
   * The launch line of {@code file}, or empty when it has none (an older probe, or nccl-tests).
   *
   * @throws InputProblem when the file cannot be read or a launch line is not whole
   */
  public Optional<ProbeLaunch> read(Path file, String name) throws InputProblem {
    try (InputStream in = new LogInput(name, file).open();
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      ProbeLaunch last = null;
      String line;
      long n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.contains("topolens-probe launch:")) {
          ProbeLaunch p = parse(line, new Evidence(name, n, line.strip()));
          if (p == null) {
            throw new InputProblem(
                name
                    + ":"
                    + n
                    + ": the probe's launch line is cut short or lacks an op (kernel, nccl,"
                    + " layer): "
                    + line.strip());
          }
          last = p;
        }
      }
      return Optional.ofNullable(last);
    } catch (IOException e) {
      throw new InputProblem(name + ": read failed: " + e.getMessage());
    }
  }

  /**
   * One line, or null when it is not a whole launch line (cut short, an op missing, a count beyond
   * an int).
   */
  static ProbeLaunch parse(String line, Evidence evidence) {
    Matcher m = LINE.matcher(line);
    if (!m.find()
        || m.group(2).length() > 9
        || m.group(3).length() > 9
        || m.group(4).length() > 9) {
      return null;
    }
    Map<String, Double> us = new HashMap<>();
    Matcher op = OP.matcher(m.group(1));
    while (op.find()) {
      us.put(op.group(1), Double.parseDouble(op.group(2)));
    }
    if (!us.containsKey("kernel") || !us.containsKey("nccl") || !us.containsKey("layer")) {
      return null;
    }
    return new ProbeLaunch(
        us.get("kernel"),
        us.get("nccl"),
        us.get("layer"),
        Integer.parseInt(m.group(2)),
        Integer.parseInt(m.group(3)),
        Integer.parseInt(m.group(4)),
        evidence);
  }
}
