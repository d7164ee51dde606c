package io.topolens.nccl;

import java.util.ArrayList;
import java.util.List;

/**
 * A line that holds several NCCL debug messages one after another because their line breaks were
 * lost: pasted from a web page or chat that joined them, a JSON log's message field, a terminal
 * copy ({@code [0] NCCL INFO NCCL_IB_HCA set to mlx5_0:1 [0] NCCL INFO NET/IB : No device found.
 * [0] NCCL INFO Using network Socket}, LLaMA-Factory issue 6111). Each message starts at its own
 * header, {@code [dev]} or {@code host:pid:tid [dev]}, optionally a source location, then {@code
 * NCCL INFO|WARN}; that header must follow a blank, so a header glued to the front of another line
 * (two processes writing at once, which {@link LineHeader} reads as the second's) is not split, nor
 * is a message that quotes {@code NCCL INFO} in its words, nor one line shown twice in two columns
 * (the same message after each header).
 */
final class RunTogetherLine {
  private RunTogetherLine() {}

  /** The messages of a run-together line, each with its header; null when it holds one. */
  static List<String> messages(String line) {
    List<Integer> starts = new ArrayList<>();
    int first = levelAt(line, 0);
    if (first < 0) {
      return null;
    }
    int from = first + 10;
    while (true) {
      int at = levelAt(line, from);
      if (at < 0) {
        break;
      }
      int start = headerStart(line, at);
      if (start > 0 && !line.substring(starts.isEmpty() ? 0 : starts.getLast(), start).isBlank()) {
        starts.add(start);
      }
      from = at + 10;
    }
    if (starts.isEmpty()) {
      return null;
    }
    List<String> out = new ArrayList<>(starts.size() + 1);
    int prev = 0;
    for (int s : starts) {
      out.add(line.substring(prev, s).strip());
      prev = s;
    }
    out.add(line.substring(prev).strip());
    // a header with nothing after it is glued to the next message: leave the line whole
    List<String> messages = new ArrayList<>(out.size());
    for (int i = 0; i < out.size(); i++) {
      LineHeader h = LineHeader.parse(out.get(i));
      if (i < out.size() - 1 && (h == null || h.message().isEmpty())) {
        return null;
      }
      messages.add(h == null ? "" : column(h.message()));
    }
    // the same message twice is one line shown in two columns (CloudWatch's export prints the
    // timestamped line and the line): read once, as a line of one message is
    List<String> kept = new ArrayList<>(out.size());
    for (int i = 0; i < out.size(); i++) {
      if (i + 1 < out.size() && messages.get(i).equals(messages.get(i + 1))) {
        continue;
      }
      kept.add(out.get(i));
    }
    return kept.size() < 2 ? null : kept;
  }

  /** A message without the column separator a table export put after it. */
  private static String column(String message) {
    String m = message.strip();
    while (m.endsWith("|")) {
      m = m.substring(0, m.length() - 1).strip();
    }
    return m;
  }

  /** The next {@code NCCL INFO} or {@code NCCL WARN} after a blank, from {@code from}; or -1. */
  private static int levelAt(String line, int from) {
    int at = line.indexOf("NCCL ", from);
    while (at >= 0) {
      if (at > 0
          && line.charAt(at - 1) == ' '
          && (line.startsWith("INFO", at + 5) || line.startsWith("WARN", at + 5))
          && (at + 9 == line.length() || line.charAt(at + 9) == ' ')) {
        return at;
      }
      at = line.indexOf("NCCL ", at + 5);
    }
    return -1;
  }

  /**
   * Where the header of the level at {@code levelAt} starts: its {@code [dev]}, or the {@code
   * host:pid:tid} before it; -1 when no {@code [dev]} stands before the level (at most a location
   * between them) or the header does not follow a blank.
   */
  private static int headerStart(String line, int levelAt) {
    int i = levelAt - 1; // the blank before NCCL
    if (i <= 0) {
      return -1;
    }
    if (line.charAt(i - 1) != ']') {
      // a source location: one word between the bracket and NCCL
      int j = line.lastIndexOf(' ', i - 1);
      if (j <= 0 || line.charAt(j - 1) != ']') {
        return -1;
      }
      i = j;
    }
    int close = i - 1;
    int open = close - 1;
    while (open >= 0 && Character.isDigit(line.charAt(open))) {
      open--;
    }
    if (open < 0 || open == close - 1 || line.charAt(open) != '[') {
      return -1;
    }
    if (open == 0 || line.charAt(open - 1) != ' ') {
      return -1;
    }
    int before = open - 1;
    int word = line.lastIndexOf(' ', before - 1) + 1;
    if (word < before && processTag(line, word, before)) {
      return word == 0 || !Character.isWhitespace(line.charAt(word - 1)) ? -1 : word;
    }
    return open;
  }

  /** Whether {@code line[from, to)} is {@code host:pid:tid}. */
  private static boolean processTag(String line, int from, int to) {
    int tid = line.lastIndexOf(':', to - 1);
    int pid = tid > from ? line.lastIndexOf(':', tid - 1) : -1;
    if (pid <= from) {
      return false;
    }
    for (int k = pid + 1; k < to; k++) {
      if (k != tid && !Character.isDigit(line.charAt(k))) {
        return false;
      }
    }
    return tid > pid + 1 && tid < to - 1;
  }
}
