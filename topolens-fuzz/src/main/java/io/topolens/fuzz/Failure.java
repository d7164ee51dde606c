package io.topolens.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a user must never see from one run, or null from {@link #of} when the run is fine: an
 * exception or error out of Main, a stack trace on stderr, an exit code other than 0/1/2, a run
 * past its timeout, an exit 2 without a one-line message naming the input, a stderr line topolens
 * did not write. {@code cause} groups failures of one cause: the exception and the first topolens
 * frame, or the symptom with the message's names and numbers taken out.
 */
record Failure(String symptom, String cause, String firstLine) {
  private static final Pattern FRAME = Pattern.compile("^\\s+at ([\\w$.]+)\\.([\\w$<>]+)\\(");
  private static final Pattern JAVA_TALK =
      Pattern.compile(
          "out of bounds for length|For input string|Cannot invoke|because \"|java\\.[a-z]+\\."
              + "|Cannot deserialize|Cannot construct|Cannot coerce|No content to map");
  private static final Pattern DIGITS = Pattern.compile("\\d+");

  static Failure of(CliCall c, Set<String> names) {
    if (c.timedOut()) {
      return new Failure("timeout", "timeout in " + c.args().getFirst(), "");
    }
    if (c.thrown() != null) {
      return new Failure("uncaught", signature(c.thrown()), String.valueOf(c.thrown()));
    }
    List<String> lines = c.err().lines().filter(l -> !l.isBlank()).toList();
    String first = lines.isEmpty() ? "" : lines.getFirst();
    if (lines.stream().anyMatch(l -> FRAME.matcher(l).find())) {
      return new Failure("stack trace", signature(lines), first);
    }
    if (c.code() < 0 || c.code() > 2) {
      return new Failure("exit code", "exit " + c.code() + " from " + c.args().getFirst(), first);
    }
    for (String l : lines) {
      if (!l.startsWith("topolens: ") && !l.startsWith("[... ")) {
        return new Failure("stray stderr", "stray stderr: " + normal(l, names), l);
      }
      if (JAVA_TALK.matcher(l).find()) {
        // an exception's own message, caught and passed on: the user learns nothing of their input
        return new Failure("java message", "java message: " + normal(l, names), l);
      }
    }
    if (c.code() == 2) {
      if (lines.isEmpty()) {
        return new Failure("silent", "exit 2 without a message from " + c.args().getFirst(), "");
      }
      List<String> fileless = new ArrayList<>();
      for (String l : lines) {
        if (names.stream().noneMatch(l::contains)) {
          fileless.add(l);
        }
      }
      if (fileless.size() == lines.size()) {
        return new Failure(
            "no file named",
            "exit 2 naming no file: " + normal(fileless.getFirst(), names),
            fileless.getFirst());
      }
    }
    return null;
  }

  private static String signature(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    for (StackTraceElement e : root.getStackTrace()) {
      if (e.getClassName().startsWith("io.topolens")) {
        return root.getClass().getSimpleName()
            + " at "
            + e.getClassName()
            + "."
            + e.getMethodName();
      }
    }
    StackTraceElement[] s = root.getStackTrace();
    return root.getClass().getSimpleName() + (s.length > 0 ? " at " + s[0] : "");
  }

  /** The exception line and the first topolens frame of a printed stack trace. */
  private static String signature(List<String> lines) {
    String exception = "?";
    for (String l : lines) {
      if (!l.startsWith("topolens: ") && !FRAME.matcher(l).find() && exception.equals("?")) {
        exception = l.split(":", 2)[0].replaceAll(".*\\.", "");
      }
      if (l.startsWith("Caused by: ")) {
        exception = l.substring(11).split(":", 2)[0].replaceAll(".*\\.", "");
      }
    }
    for (String l : lines) {
      var m = FRAME.matcher(l);
      if (m.find()
          && m.group(1).startsWith("io.topolens")
          && !m.group(1).startsWith("io.topolens.fuzz")) {
        return exception + " at " + m.group(1) + "." + m.group(2);
      }
    }
    return exception;
  }

  private static String normal(String line, Set<String> names) {
    String s = line;
    for (String n : names) {
      s = s.replace(n, "FILE");
    }
    s = DIGITS.matcher(s).replaceAll("N");
    return s.length() > 120 ? s.substring(0, 120) : s;
  }
}
