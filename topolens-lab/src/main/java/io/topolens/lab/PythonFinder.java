package io.topolens.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds a Python interpreter that imports torch: the one the user named, else {@code python3} on
 * PATH, else {@code /usr/bin/python3} (Debian's python3-torch lands there while {@code python3} on
 * PATH may be a pyenv or conda interpreter without torch).
 */
public final class PythonFinder {

  /** The interpreters tried, in order, when the user names none. */
  public static final List<String> DEFAULT_CANDIDATES = List.of("python3", "/usr/bin/python3");

  private static final long CHECK_SECONDS = 120;

  /** A Python that imports torch, with the torch version it reported. */
  public record Python(String command, String torchVersion) {}

  /** Why no Python qualified: one line per interpreter tried. */
  public static final class NotFound extends Exception {
    public NotFound(String message) {
      super(message);
    }
  }

  private final List<String> candidates;

  /** Tries {@code python} alone when not null, else {@link #DEFAULT_CANDIDATES}. */
  public PythonFinder(String python) {
    this.candidates = python == null ? DEFAULT_CANDIDATES : List.of(python);
  }

  /**
   * The first candidate that runs and imports torch.
   *
   * @throws NotFound with one line naming every interpreter tried and why it failed
   */
  public Python find() throws NotFound {
    List<String> why = new ArrayList<>();
    for (String c : candidates) {
      Result r = check(c);
      if (r.python().isPresent()) {
        return r.python().get();
      }
      why.add(c + ": " + r.problem());
    }
    throw new NotFound(
        "no Python that imports torch ("
            + String.join("; ", why)
            + "); install PyTorch (Debian: apt-get install python3-torch) or give --python PATH");
  }

  /**
   * {@link #find()} for a command: null after one line on {@code err} saying why none qualified.
   */
  public Python findOrSay(java.io.PrintWriter err) {
    try {
      return find();
    } catch (NotFound e) {
      err.println("topolens: " + e.getMessage());
      return null;
    }
  }

  private record Result(Optional<Python> python, String problem) {}

  private static Result check(String command) {
    ProcessBuilder pb =
        new ProcessBuilder(command, "-c", "import torch, sys; sys.stdout.write(torch.__version__)");
    pb.redirectErrorStream(true);
    Path out;
    try {
      out = Files.createTempFile("topolens-python", ".txt");
    } catch (IOException e) {
      return new Result(Optional.empty(), "cannot create a temporary file: " + e.getMessage());
    }
    pb.redirectOutput(out.toFile());
    try {
      Process p = pb.start();
      if (!p.waitFor(CHECK_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(
            Optional.empty(), "'import torch' did not finish in " + CHECK_SECONDS + " s");
      }
      String text = Files.readString(out).strip();
      if (p.exitValue() != 0) {
        return new Result(Optional.empty(), lastLine(text));
      }
      return new Result(Optional.of(new Python(command, lastLine(text))), "");
    } catch (IOException e) {
      return new Result(Optional.empty(), "cannot run it (" + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(Optional.empty(), "interrupted");
    } finally {
      try {
        Files.deleteIfExists(out);
      } catch (IOException ignored) {
        // a leftover temporary file is harmless
      }
    }
  }

  private static String lastLine(String text) {
    String[] lines = text.split("\\R");
    String last = lines.length == 0 ? "" : lines[lines.length - 1].strip();
    return last.isEmpty() ? "no output" : last;
  }
}
