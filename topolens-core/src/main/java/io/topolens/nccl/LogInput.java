package io.topolens.nccl;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * One thing to read: a file (plain or gzip, told by its first bytes) or standard input. {@link
 * #expand} turns command-line paths into inputs, walking directories.
 */
public record LogInput(String name, Path path) {

  /** Standard input's name in evidence. */
  public static final String STDIN = "<stdin>";

  /** A path given on the command line that could not be used, and why. */
  public record Skipped(String name, String problem) {}

  /** The inputs and the paths that could not be used. */
  public record Expansion(List<LogInput> inputs, List<Skipped> skipped) {}

  /**
   * Expands paths: {@code -} is standard input, a directory contributes every regular file under it
   * (sorted, hidden files skipped), a missing or unreadable path is reported as skipped.
   */
  public static Expansion expand(List<String> args) {
    List<LogInput> inputs = new ArrayList<>();
    List<Skipped> skipped = new ArrayList<>();
    for (String arg : args) {
      if (arg.equals("-")) {
        inputs.add(new LogInput(STDIN, null));
        continue;
      }
      Path p = Path.of(arg);
      if (!Files.exists(p)) {
        skipped.add(new Skipped(arg, "no such file or directory"));
      } else if (Files.isDirectory(p)) {
        walk(p, inputs, skipped);
      } else if (!Files.isReadable(p)) {
        skipped.add(new Skipped(arg, "permission denied"));
      } else {
        inputs.add(new LogInput(arg, p));
      }
    }
    return new Expansion(inputs, skipped);
  }

  private static void walk(Path dir, List<LogInput> inputs, List<Skipped> skipped) {
    try (Stream<Path> files = Files.walk(dir)) {
      files
          .filter(f -> !f.equals(dir))
          .filter(f -> !f.getFileName().toString().startsWith("."))
          .sorted()
          .forEach(
              f -> {
                if (Files.isDirectory(f)) {
                  if (!Files.isReadable(f)) {
                    skipped.add(new Skipped(f.toString(), "permission denied"));
                  }
                } else if (!Files.isRegularFile(f)) {
                  skipped.add(new Skipped(f.toString(), "not a regular file"));
                } else if (!Files.isReadable(f)) {
                  skipped.add(new Skipped(f.toString(), "permission denied"));
                } else {
                  String notALog = notALog(f);
                  if (notALog != null) {
                    skipped.add(new Skipped(f.toString(), notALog));
                  } else {
                    inputs.add(new LogInput(f.toString(), f));
                  }
                }
              });
    } catch (IOException | RuntimeException e) {
      skipped.add(new Skipped(dir.toString(), "cannot list directory: " + reason(e)));
    }
  }

  /** What topolens diagnoses itself writes: its text report begins so. */
  private static final byte[] OWN_REPORT = "topolens diagnose:".getBytes(StandardCharsets.US_ASCII);

  /**
   * Why a file found in a directory is no input, or null: a program's source (the probe's {@code
   * probe.py} beside its output holds nccl-tests' header text) or topolens' own text report (an
   * experiment's {@code diagnosis.txt} quotes the NCCL lines it judged, which would count twice).
   * Files named on the command line are always read.
   */
  static String notALog(Path f) {
    String name = f.getFileName().toString();
    if (name.endsWith(".py") || name.endsWith(".sh")) {
      return "a program's source, not a log";
    }
    try (InputStream in = Files.newInputStream(f)) {
      byte[] head = in.readNBytes(OWN_REPORT.length);
      if (Arrays.equals(head, OWN_REPORT)) {
        return "topolens' own report, not a log";
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  /** Opens the input, unwrapping gzip when its first two bytes say so. */
  public InputStream open() throws InputProblem {
    try {
      InputStream raw = path == null ? System.in : Files.newInputStream(path);
      BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
      in.mark(2);
      int b0 = in.read();
      int b1 = in.read();
      in.reset();
      if (b0 == 0x1f && b1 == 0x8b) {
        return new GZIPInputStream(in, 1 << 16);
      }
      return in;
    } catch (IOException e) {
      throw new InputProblem(name + ": cannot open: " + reason(e));
    }
  }

  static String reason(Exception e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.io.EOFException) {
      // GZIPInputStream's word for a .gz cut short (a copy interrupted, a log still being written)
      return "the file ends before its compressed data does (truncated .gz)";
    }
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }
}
