package io.topolens.nccl;

/**
 * The parts of an NCCL debug line: {@code host:pid:tid [dev] [location] NCCL LEVEL message}.
 * Whatever came before the host (timestamps, launcher tags) is the envelope.
 *
 * @param location the {@code file.cc:line} or function NCCL prints before WARN, or empty
 * @param process {@code host:pid}, the key of the line's process
 */
record LineHeader(
    String host,
    long pid,
    long tid,
    int dev,
    Level level,
    String location,
    String message,
    String process) {

  LineHeader(
      String host, long pid, long tid, int dev, Level level, String location, String message) {
    this(host, pid, tid, dev, level, location, message, host + ":" + pid);
  }

  /** The host of lines printed without one ({@code [3] NCCL INFO ...}). */
  static final String NO_HOST = "?";

  /** NCCL's debug levels as printed. */
  enum Level {
    INFO,
    WARN,
    TRACE,
    ERROR,
    ABORT
  }

  /**
   * Finds the NCCL header in a line, skipping any prefix a logger or launcher put before it:
   * timestamps (NCCL's own, kubectl --timestamps, containerd CRI, CloudWatch), torchrun {@code
   * [rank3]:}, mpirun {@code [1,3]<stdout>:}, srun {@code 3: }, Ray {@code (pid=1234)}. The copies
   * of an mpirun tag inside the line (a line printed in several writes) are removed first ({@link
   * OpenMpiTag}). Returns null when the line has no NCCL header.
   */
  static LineHeader parse(String line) {
    if (line.indexOf("NCCL ") < 0) {
      return null;
    }
    if (line.indexOf(OpenMpiTag.MARK) >= 0) {
      line = OpenMpiTag.joinWrites(line); // a line written in several writes under --tag-output
    }
    int levelAt = -1;
    Level level = null;
    int from = 0;
    while (true) {
      int at = line.indexOf("NCCL ", from);
      if (at < 0) {
        return null;
      }
      level = levelAfter(line, at + 5);
      if (level != null && (at == 0 || isOpening(line.charAt(at - 1)))) {
        levelAt = at;
        break;
      }
      from = at + 5;
    }
    int bracket = line.indexOf(" [", 0);
    while (bracket >= 0 && bracket < levelAt) {
      LineHeader h = headerAt(line, bracket, levelAt, level);
      if (h != null) {
        return glued(h);
      }
      bracket = line.indexOf(" [", bracket + 2);
    }
    LineHeader h = headerless(line, levelAt, level);
    return h != null ? h : bare(line, levelAt, level);
  }

  /**
   * NCCL before 2.4 printed its INFO lines without the word NCCL (debug.h's {@code "%s:%d:%d [%d]
   * INFO "}): {@code learngpu060:3728589:3730445 [2] INFO Ring 00 : 2[2] -> 3[3] via P2P/IPC}. Only
   * a full header (host, pid, tid, device) right before {@code INFO} is taken, so other loggers'
   * INFO lines are not; null otherwise.
   */
  static LineHeader oldInfo(String line) {
    int at = line.indexOf(Needles.OLD_INFO);
    if (at < 0) {
      return null;
    }
    int bracket = line.lastIndexOf(" [", at);
    if (bracket < 0) {
      return null;
    }
    LineHeader h = headerAt(line, bracket, at + 2, Level.INFO);
    // headerAt falls back to a host alone; an old line always has pid and tid
    return h == null || h.pid() == 0 || !h.location().isEmpty() ? null : h;
  }

  /** Where the message starts: after {@code NCCL LEVEL}, or after {@code LEVEL} in old lines. */
  private static int messageStart(String line, int levelAt, Level level) {
    return levelAt + (line.startsWith("NCCL ", levelAt) ? 5 : 0) + level.name().length();
  }

  /** Whether {@code c} may stand right before {@code NCCL LEVEL}. */
  static boolean isOpening(char c) {
    return c == ' ' || c == '\t' || c == '"' || c == '\'' || c == '`';
  }

  /**
   * The last resort for a line that says {@code NCCL INFO|WARN} but carries no header this reader
   * knows: a logger that rewrote it ({@code [misc/socket.cc:602] [host:pid=N] NCCL WARN ...}), or a
   * line quoted in prose ({@code "NCCL INFO Call to connect returned ..."}). Host {@code ?}, device
   * unknown (-1); the message still says what happened.
   */
  private static LineHeader bare(String line, int levelAt, Level level) {
    int msgStart = messageStart(line, levelAt, level);
    String message = msgStart < line.length() ? line.substring(msgStart).strip() : "";
    if (message.endsWith("\"") || message.endsWith("`") || message.endsWith("'")) {
      message = message.substring(0, message.length() - 1).strip();
    }
    return new LineHeader(NO_HOST, 0, 0, -1, level, "", message);
  }

  /**
   * NCCL's failure text pasted without any header ({@link NcclFailureTexts}): read as the WARN line
   * it was, of an unknown host and device, as {@link #bare} reads a quoted one.
   */
  static LineHeader pasted(String line) {
    return new LineHeader(NO_HOST, 0, 0, -1, Level.WARN, "", line.strip());
  }

  /**
   * Some launchers and loggers drop {@code host:pid:tid}: {@code [3] NCCL INFO ...}, {@code [3]
   * include/shm.h:28 NCCL WARN ...}. The line is device 3's, of an unknown host and process (host
   * {@code ?}, pid and tid 0). The bracket starts the line or follows a blank, and at most a source
   * location stands between it and {@code NCCL}.
   */
  private static LineHeader headerless(String line, int levelAt, Level level) {
    int close = line.lastIndexOf("] ", levelAt);
    if (close < 0) {
      return locationOnly(line, levelAt, level);
    }
    int open = line.lastIndexOf('[', close);
    if (open < 0
        || open + 1 == close
        || (open > 0 && !Character.isWhitespace(line.charAt(open - 1)))) {
      return null;
    }
    for (int i = open + 1; i < close; i++) {
      if (!Character.isDigit(line.charAt(i))) {
        return null;
      }
    }
    String location = line.substring(close + 2, levelAt).strip();
    if (location.indexOf(' ') >= 0) {
      return null;
    }
    int dev;
    try {
      dev = Integer.parseInt(line, open + 1, close, 10);
    } catch (NumberFormatException e) {
      return null;
    }
    int msgStart = messageStart(line, levelAt, level);
    String message = msgStart < line.length() ? line.substring(msgStart).strip() : "";
    return new LineHeader(NO_HOST, 0, 0, dev, level, location, message);
  }

  /**
   * Two processes writing at once can glue a header to the front of another line ({@code a:1:2 [1]
   * NCCL INFO b:3:4 [2] NCCL INFO Ring 05 : ...}): the second header owns the content.
   */
  private static LineHeader glued(LineHeader h) {
    String m = h.message();
    if (m.indexOf(" NCCL ") > 0 && (m.contains(" NCCL INFO") || m.contains(" NCCL WARN"))) {
      LineHeader inner = parse(m);
      if (inner != null) {
        return inner;
      }
    }
    return h;
  }

  private static Level levelAfter(String line, int i) {
    for (Level l : Level.values()) {
      String name = l.name();
      if (line.startsWith(name, i)
          && (i + name.length() == line.length() || line.charAt(i + name.length()) == ' ')) {
        return l;
      }
    }
    return null;
  }

  /** Tries {@code host:pid:tid [dev] } ending at the space before {@code bracket}. */
  private static LineHeader headerAt(String line, int bracket, int levelAt, Level level) {
    int i = bracket + 2;
    int devStart = i;
    if (i < line.length() && line.charAt(i) == '-') {
      i++;
    }
    while (i < line.length() && Character.isDigit(line.charAt(i))) {
      i++;
    }
    if (i == devStart || i >= line.length() || line.charAt(i) != ']') {
      return null;
    }
    int dev;
    try {
      dev = Integer.parseInt(line, devStart, i, 10);
    } catch (NumberFormatException e) {
      return null;
    }
    int afterBracket = i + 1;
    // back over tid, ':', pid, ':', host
    int j = bracket;
    int tidEnd = j;
    while (j > 0 && Character.isDigit(line.charAt(j - 1))) {
      j--;
    }
    if (j == tidEnd || j == 0 || line.charAt(j - 1) != ':') {
      return hostOnly(line, bracket, dev, afterBracket, levelAt, level);
    }
    int tidStart = j;
    j--;
    int pidEnd = j;
    while (j > 0 && Character.isDigit(line.charAt(j - 1))) {
      j--;
    }
    if (j == pidEnd || j == 0 || line.charAt(j - 1) != ':') {
      return null;
    }
    int pidStart = j;
    j--;
    int hostEnd = j;
    while (j > 0 && isHostChar(line.charAt(j - 1))) {
      j--;
    }
    if (j == hostEnd) {
      return null;
    }
    long pid;
    long tid;
    try {
      pid = Long.parseLong(line, pidStart, pidEnd, 10);
      tid = Long.parseLong(line, tidStart, tidEnd, 10);
    } catch (NumberFormatException e) {
      return null;
    }
    String host = line.substring(j, hostEnd);
    String location = afterBracket < levelAt ? line.substring(afterBracket, levelAt).strip() : "";
    int msgStart = messageStart(line, levelAt, level);
    String message = msgStart < line.length() ? line.substring(msgStart).strip() : "";
    return new LineHeader(host, pid, tid, dev, level, location, message);
  }

  /**
   * A WARN pasted without host and device: {@code register_mr_buffers:544 NCCL WARN NET/OFI ...},
   * the source location alone (a {@code name:line} token) starting the line. Device unknown (-1).
   */
  private static LineHeader locationOnly(String line, int levelAt, Level level) {
    String location = line.substring(0, levelAt).strip();
    int colon = location.lastIndexOf(':');
    if (location.isEmpty()
        || location.indexOf(' ') >= 0
        || colon <= 0
        || colon == location.length() - 1
        || line.charAt(levelAt - 1) != ' ') {
      return null;
    }
    for (int i = colon + 1; i < location.length(); i++) {
      if (!Character.isDigit(location.charAt(i))) {
        return null;
      }
    }
    int msgStart = messageStart(line, levelAt, level);
    String message = msgStart < line.length() ? line.substring(msgStart).strip() : "";
    return new LineHeader(NO_HOST, 0, 0, -1, level, location, message);
  }

  /** Some loggers drop pid and tid: {@code gpu-server320 [5] NCCL INFO ...}; pid and tid are 0. */
  private static LineHeader hostOnly(
      String line, int bracket, int dev, int afterBracket, int levelAt, Level level) {
    int j = bracket;
    while (j > 0 && isHostChar(line.charAt(j - 1))) {
      j--;
    }
    if (j == bracket || (j > 0 && line.charAt(j - 1) != ' ' && line.charAt(j - 1) != '\t')) {
      return null;
    }
    String host = line.substring(j, bracket);
    if (!Character.isLetterOrDigit(host.charAt(0)) || host.endsWith(":")) {
      return null;
    }
    String location = afterBracket < levelAt ? line.substring(afterBracket, levelAt).strip() : "";
    int msgStart = messageStart(line, levelAt, level);
    String message = msgStart < line.length() ? line.substring(msgStart).strip() : "";
    return new LineHeader(host, 0, 0, dev, level, location, message);
  }

  /** Whether {@code c} may be part of a host name in a header. */
  static boolean isHostChar(char c) {
    return c > ' ' && c != ':' && c != ']' && c != '[' && c != ')' && c != '(' && c != '|'
        && c != '"' && c != '\'' && c != ',';
  }
}
