package io.topolens.bench;

import io.topolens.model.Evidence;
import io.topolens.model.LineSample;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLines;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads nccl-tests output, text or the JSON of {@code -J}, told apart by content, into a {@link
 * BenchFile}. Text is read line by line and only the runs being read are held, so files of any size
 * stream through. It reads and records; it never judges.
 *
 * <p>Handled: every line prefix seen in public logs (Slurm {@code srun -l}, Open MPI {@code
 * --tag-output}, timestamps, markdown indentation, dstack's view without {@code #}, {@code $}
 * prompt lines), NCCL INFO/WARN lines anywhere, {@code ...} elisions, zero-size rows, columns out
 * of line, the old {@code error} column and the tables without root or redop, {@code #wrong N/A},
 * several runs in one file, and runs cut short.
 */
public final class NcclTestsReader {

  private static final int PEEK = 8192;
  private static final int MAX_LINE = 1 << 16;

  static final Pattern TEXT_MARKERS =
      Pattern.compile(
          "nccl-tests version \\S+|Collective test (?:starting|concluded):|"
              + "nThreads?:?\\s+\\d+\\s+nGpus:?\\s+\\d+|"
              + "#\\s+Rank\\s+\\d+\\s+(?:Group\\s+\\d+\\s+)?Pid\\s+\\d+\\s+on\\s+\\S+\\s+device|"
              + "size\\s+count\\s+type\\s+(?:redop\\s+)?(?:root\\s+)?(?:cpu)?time\\s+algbw\\s+busbw|"
              + "\\(B\\)\\s+\\(elements\\)|Out of bounds values\\s*:|Avg bus bandwidth\\s*:|"
              + "#\\s*Using devices|Test (?:NCCL|CUDA) failure common\\.cu|: Test failure common\\.cu|"
              + "Rank\\s+\\d+\\s+uses device\\s+\\d+\\s+\\[0x|"
              + "bytes\\s+N\\s+type\\s+op\\s+time\\s+algbw\\s+busbw");

  /**
   * One literal each branch of {@link #TEXT_MARKERS} needs: a text holding none cannot match, and
   * is not searched at every place of its 64 KiB head (a log's, at every start:
   * docs/performance.md). {@code NcclTestsSniffTest} checks each branch's own example against it.
   */
  static final List<String> TEXT_LITERALS =
      List.of(
          "nccl-tests version ",
          "Collective test ",
          "nGpus",
          "Pid",
          "algbw",
          "(elements)",
          "Out of bounds values",
          "Avg bus bandwidth",
          "Using devices",
          "failure common.cu",
          "uses device");

  /**
   * A result row as nccl-tests prints it, alone on its line or after a launcher's tag ({@code
   * [1,0]<stdout>:}, again before the time where the row was printed in several writes): size,
   * count, type, a reduction or none, an optional root, then time, algbw and busbw. Two such lines
   * mark a table whose header the excerpt left out.
   */
  private static final Pattern ROW =
      Pattern.compile(
          "(?m)^[ \\t]*(?:\\[\\d+,\\d+\\]<stdout>:|\\d+: )?[ \\t]*\\d+[ \\t]+\\d+[ \\t]+"
              + "(?:u?int(?:8|32|64)?|char|half|float|double|bfloat16|f8e[45]m[23])[ \\t]+"
              + "(?:sum|prod|max|min|avg|premulsum|none)[ \\t]+(?:-?\\d+(?:[ \\t]+|(?=\\[)))?"
              + "(?:\\[\\d+,\\d+\\]<stdout>:[ \\t]*)?\\d+(?:\\.\\d+)?[ \\t]+\\d+\\.\\d+[ \\t]+\\d+\\.\\d+[ \\t]");

  private static final Pattern JSON_START =
      Pattern.compile("^\\s*\\{\\s*\"version\"\\s*:\\s*\\d+\\s*,\\s*\"start_time\"\\s*:");
  private static final Pattern JSON_KEYS =
      Pattern.compile("\"(?:nccl_version|out_of_place|alg_bw|bus_bw|average_bus_bandwidth)\"\\s*:");

  /**
   * Whether a file's first kilobytes look like nccl-tests output: a preamble, column header, rank
   * line or summary of the text form, nccl-tests' own failure lines ({@code Test CUDA failure
   * common.cu:...}, printed when a run dies before its table), or the opening of the JSON form. A
   * plain NCCL debug log has none of these.
   */
  public static boolean looksLike(String firstKilobytes) {
    if (firstKilobytes == null) {
      return false;
    }
    String s = firstKilobytes.startsWith("\uFEFF") ? firstKilobytes.substring(1) : firstKilobytes;
    if (s.stripLeading().startsWith("{")) {
      return JSON_START.matcher(s).find() || JSON_KEYS.matcher(s).find();
    }
    if (holdsAny(s, TEXT_LITERALS) && TEXT_MARKERS.matcher(s).find()) {
      return true;
    }
    // result rows without their header (nccl issue 340, Open MPI's --tag-output in
    // aws-k8s-tester PR 585): only where a row's type and reduction words are there at all
    if (s.indexOf(" sum ") < 0
        && s.indexOf(" prod ") < 0
        && s.indexOf(" max ") < 0
        && s.indexOf(" min ") < 0
        && s.indexOf(" avg ") < 0
        && s.indexOf(" none ") < 0) {
      return false;
    }
    Matcher m = ROW.matcher(s);
    return m.find() && m.find();
  }

  private static boolean holdsAny(String s, List<String> literals) {
    for (String l : literals) {
      if (s.contains(l)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reads one file (plain or gzip). {@code name} is how evidence names it.
   *
   * @throws InputProblem when it cannot be opened or read, is binary or empty, is JSON but not
   *     nccl-tests', or holds no nccl-tests run at all
   */
  public BenchFile read(Path path, String name) throws InputProblem {
    try (InputStream raw = new LogInput(name, path).open();
        BufferedInputStream in = new BufferedInputStream(raw, 1 << 16)) {
      in.mark(PEEK);
      byte[] head = in.readNBytes(PEEK);
      in.reset();
      if (head.length == 0) {
        throw new InputProblem(name + ": empty file");
      }
      String binary = NcclLines.binaryProblem(head, head.length);
      if (binary != null) {
        throw new InputProblem(name + ": " + binary);
      }
      if (firstNonBlank(head) == '{') {
        return JsonReader.read(in, name);
      }
      return text(in, name);
    } catch (IOException e) {
      throw new InputProblem(name + ": read failed: " + e.getMessage());
    }
  }

  private static int firstNonBlank(byte[] head) {
    int i = 0;
    if (head.length >= 3
        && (head[0] & 0xff) == 0xef
        && (head[1] & 0xff) == 0xbb
        && (head[2] & 0xff) == 0xbf) {
      i = 3;
    }
    for (; i < head.length; i++) {
      if (!Character.isWhitespace(head[i])) {
        return head[i];
      }
    }
    return -1;
  }

  private static BenchFile text(InputStream in, String name) throws IOException, InputProblem {
    TextReader reader = new TextReader(name);
    Reader chars = new InputStreamReader(in, StandardCharsets.UTF_8);
    char[] buf = new char[1 << 16];
    StringBuilder line = new StringBuilder(256);
    long number = 0;
    long overlong = 0;
    boolean skipping = false;
    int n;
    while ((n = chars.read(buf)) >= 0) {
      for (int i = 0; i < n; i++) {
        char c = buf[i];
        if (c == '\n') {
          number++;
          if (skipping) {
            reader.overlong(
                new Evidence(
                    name, number, "line of more than " + MAX_LINE + " characters, skipped"));
            overlong++;
          } else {
            reader.line(line.toString(), number);
          }
          line.setLength(0);
          skipping = false;
        } else if (!skipping) {
          if (line.length() >= MAX_LINE) {
            skipping = true;
            line.setLength(0);
          } else {
            line.append(c);
          }
        }
      }
    }
    if (line.length() > 0 || skipping) {
      number++;
      if (skipping) {
        reader.overlong(
            new Evidence(name, number, "line of more than " + MAX_LINE + " characters, skipped"));
      } else {
        reader.line(line.toString(), number);
      }
    }
    List<BenchRun> runs = reader.finish();
    if (runs.isEmpty() && reader.failuresBeforeRuns > 0) {
      // a failure report (nccl/heldout set10 z08, set12 p14): diagnose reads its lines as a log
      throw new InputProblem(
          name
              + ": nccl-tests failed before its first result ("
              + reader.failuresBeforeRuns
              + " failure line(s) of "
              + number
              + ", no table)");
    }
    if (runs.isEmpty()) {
      throw new InputProblem(
          name
              + ": no nccl-tests output found ("
              + number
              + " lines, "
              + reader.ncclLines
              + " of them NCCL log lines)");
    }
    LineSample unrecognized = reader.unrecognized.toSample();
    LineSample malformed = reader.malformed.toSample();
    return new BenchFile(
        name,
        runs,
        number,
        reader.ncclLines,
        unrecognized.count(),
        unrecognized.samples(),
        malformed.count(),
        malformed.samples());
  }
}
