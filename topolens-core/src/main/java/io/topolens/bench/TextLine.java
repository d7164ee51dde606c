package io.topolens.bench;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of nccl-tests text output, its launcher prefix already stripped, told by its content.
 * The {@code #} that starts comment lines is optional (dstack's log view drops it); a line whose
 * {@code #} comes after some unknown label ({@code worker-0: # nThread ...}) keeps the label as its
 * envelope.
 *
 * @param body the text after the {@code #} (or the whole content when there is none), stripped
 * @param match the kind's pattern match, for the kinds that have groups
 * @param envelope what came before the {@code #} when it was not at the start; empty otherwise
 */
record TextLine(Kind kind, String body, Matcher match, String envelope) {

  enum Kind {
    BLANK,
    SPACER,
    VERSION,
    STARTING,
    CONCLUDED,
    PARAMS,
    USING_DEVICES,
    RANK,
    OLD_RANK,
    REDUCING,
    HEADER_GROUPS,
    HEADER_COLUMNS,
    HEADER_UNITS,
    OUT_OF_BOUNDS,
    AVG_BUS_BW,
    ELISION,
    KNOWN,
    ERROR,
    ROW,
    COMMAND,
    OTHER
  }

  static final Pattern VERSION =
      Pattern.compile(
          "^nccl-tests version (\\S+)(?:.*?nccl-headers=(\\d+))?(?:.*?nccl-library=(\\d+))?.*$");
  static final Pattern STARTING = Pattern.compile("^Collective test starting:\\s*(\\S+)");
  static final Pattern CONCLUDED = Pattern.compile("^Collective test concluded:\\s*(\\S+)");
  static final Pattern PARAMS = Pattern.compile("^nThreads?:?\\s+\\d+\\s+nGpus:?\\s+\\d+.*$");
  static final Pattern RANK =
      Pattern.compile(
          "^Rank\\s+(\\d+)\\s+(?:Group\\s+(\\d+)\\s+)?(?:Pid\\s+(\\d+)\\s+)?on\\s+(\\S+)\\s+"
              + "device\\s+(\\d+)\\s+\\[([^\\]]*)\\]\\s*(.*)$");

  /**
   * NCCL 1's tests ({@code test/single/all_reduce_test}): {@code Rank 0 uses device 0 [0x05] Tesla
   * M40 24GB}, one process driving every GPU, no host printed.
   */
  static final Pattern OLD_RANK =
      Pattern.compile("^Rank\\s+(\\d+)\\s+uses device\\s+(\\d+)\\s+\\[([^\\]]*)\\]\\s*(.*)$");

  static final Pattern REDUCING = Pattern.compile("^Reducing maxBytes to (\\d+)");
  static final Pattern OUT_OF_BOUNDS = Pattern.compile("^Out of bounds values\\s*:\\s*(.*)$");
  static final Pattern AVG = Pattern.compile("^Avg bus bandwidth\\s*:\\s*(\\S+)\\s*(.*)$");
  private static final Pattern UNITS = Pattern.compile("^\\(B\\)\\s+\\(elements\\).*");
  private static final Pattern GROUPS = Pattern.compile("^out-of-place\\b.*\\bin-place\\b.*");
  private static final Pattern ELISION = Pattern.compile("^(?:\\.{3,}|\u2026)$");
  private static final Pattern FIRST_INTEGER = Pattern.compile("^-?\\d+(?:\\s.*)?$");
  private static final Pattern TEST_BINARY =
      Pattern.compile("(?:^|[\\s/=])([a-z_]+_perf(?:_mpi)?)(?:\\s|$)");

  /**
   * What nccl-tests prints on failure (common.h, common.cu) and what launchers print when a rank
   * dies.
   */
  private static final Pattern ERROR =
      Pattern.compile(
          "Test (?:NCCL|CUDA) failure|: Test failure |Test timeout \\(|"
              + "\\*\\*\\* Process received signal|Segmentation fault|Bus error|"
              + "Aborted \\(core dumped\\)|terminate called after throwing|"
              + "srun: error:|slurmstepd: error:|mpirun noticed that|prterun noticed that|"
              + "MPI_ABORT was invoked|ORTE has lost communication|"
              + "Primary job {1,2}terminated normally, but|DUE TO TIME LIMIT|CANCELLED AT|"
              + "Killed process|^Killed$|ncclInternalError|ncclSystemError|ncclUnhandledCudaError|"
              + "ncclRemoteError|ncclInvalidUsage|ncclInvalidArgument|out of memory");

  private static final List<String> KNOWN =
      List.of(
          "Writing JSON output to",
          "skipping json output",
          "Blocking Enabled",
          "Per-Iteration Report",
          "Parallel Init Enabled",
          "Writing results to file",
          "GPU memory usage",
          "Device memory usage",
          "Check bandwidth",
          "Errors with asterisks indicate errors");

  static TextLine classify(String content) {
    if (content.isEmpty()) {
      return new TextLine(Kind.BLANK, "", null, "");
    }
    boolean comment = content.charAt(0) == '#';
    String body = comment ? content.substring(1).strip() : content;
    TextLine t = classify(body, comment);
    if (t.kind() == Kind.OTHER && !comment) {
      int hash = content.indexOf('#');
      if (hash > 0) {
        TextLine inner = classify(content.substring(hash + 1).strip(), true);
        String envelope = content.substring(0, hash).strip();
        boolean label = !envelope.isEmpty() && envelope.chars().noneMatch(Character::isWhitespace);
        if (inner.kind() != Kind.OTHER
            && inner.kind() != Kind.ERROR
            && (inner.kind() != Kind.SPACER || label)) {
          return new TextLine(inner.kind(), inner.body(), inner.match(), envelope);
        }
      }
    }
    return t;
  }

  private static TextLine classify(String body, boolean comment) {
    if (body.isEmpty()) {
      return new TextLine(comment ? Kind.SPACER : Kind.BLANK, body, null, "");
    }
    Matcher m;
    if ((m = VERSION.matcher(body)).matches()) {
      return new TextLine(Kind.VERSION, body, m, "");
    }
    if ((m = STARTING.matcher(body)).lookingAt()) {
      return new TextLine(Kind.STARTING, body, m, "");
    }
    if ((m = CONCLUDED.matcher(body)).lookingAt()) {
      return new TextLine(Kind.CONCLUDED, body, m, "");
    }
    if (PARAMS.matcher(body).matches()) {
      return new TextLine(Kind.PARAMS, body, null, "");
    }
    if (body.startsWith("Using devices")) {
      return new TextLine(Kind.USING_DEVICES, body, null, "");
    }
    if ((m = RANK.matcher(body)).matches()) {
      return new TextLine(Kind.RANK, body, m, "");
    }
    if ((m = OLD_RANK.matcher(body)).matches()) {
      return new TextLine(Kind.OLD_RANK, body, m, "");
    }
    if ((m = REDUCING.matcher(body)).lookingAt()) {
      return new TextLine(Kind.REDUCING, body, m, "");
    }
    if (GROUPS.matcher(body).matches() && !body.contains("algbw")) {
      return new TextLine(Kind.HEADER_GROUPS, body, null, "");
    }
    if (TableLayout.isColumnHeader(body)) {
      return new TextLine(Kind.HEADER_COLUMNS, body, null, "");
    }
    if (UNITS.matcher(body).matches()) {
      return new TextLine(Kind.HEADER_UNITS, body, null, "");
    }
    if ((m = OUT_OF_BOUNDS.matcher(body)).matches()) {
      return new TextLine(Kind.OUT_OF_BOUNDS, body, m, "");
    }
    if ((m = AVG.matcher(body)).matches()) {
      return new TextLine(Kind.AVG_BUS_BW, body, m, "");
    }
    if (ELISION.matcher(body).matches()) {
      return new TextLine(Kind.ELISION, body, null, "");
    }
    for (String k : KNOWN) {
      if (body.startsWith(k)) {
        return new TextLine(Kind.KNOWN, body, null, "");
      }
    }
    if (body.startsWith("nRanks ") && body.contains("is not a power of 2")) {
      return new TextLine(Kind.KNOWN, body, null, "");
    }
    if (comment && body.startsWith("error:")) {
      return new TextLine(Kind.ERROR, body, null, "");
    }
    if (ERROR.matcher(body).find()) {
      return new TextLine(Kind.ERROR, body, null, "");
    }
    if (!comment && FIRST_INTEGER.matcher(body).matches()) {
      return new TextLine(Kind.ROW, body, null, "");
    }
    if (!comment && (m = TEST_BINARY.matcher(body)).find()) {
      return new TextLine(Kind.COMMAND, body, m, "");
    }
    return new TextLine(Kind.OTHER, body, null, "");
  }
}
