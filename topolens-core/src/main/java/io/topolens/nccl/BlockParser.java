package io.topolens.nccl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a block of whole lines and parses the NCCL ones. Stateless, so blocks parse in parallel;
 * line numbers are relative to the block and the assembler applies blocks in order.
 */
final class BlockParser {
  /**
   * Lines longer than this are not log lines (a dumped tensor, a base64 blob): counted, skipped.
   */
  static final int MAX_LINE = 1 << 16;

  private BlockParser() {}

  /** One parsed line of a block. {@code header} is null for NCCL-looking lines without one. */
  record Parsed(int line, String text, LineHeader header, NcclEvent event) {}

  /** A block's lines: how many, the NCCL ones parsed, and the overlong ones. */
  record Result(int lines, int ncclLines, List<Parsed> parsed, List<Parsed> overlong) {}

  static Result parse(byte[] buf, int len) {
    List<Parsed> parsed = new ArrayList<>();
    List<Parsed> overlong = new ArrayList<>(0);
    int lines = 0;
    int nccl = 0;
    int start = 0;
    while (start < len) {
      int end = start;
      while (end < len && buf[end] != '\n') {
        end++;
      }
      lines++;
      int lineLen = end - start;
      if (lineLen > MAX_LINE) {
        String head = new String(buf, start, 120, StandardCharsets.ISO_8859_1);
        overlong.add(
            new Parsed(
                lines, "line of " + lineLen + " bytes starting \"" + head + "\"", null, null));
      } else if (containsNccl(buf, start, end)) {
        String text = decode(buf, start, end);
        LineHeader h = LineHeader.parse(text);
        if (h != null) {
          nccl++;
          parsed.add(new Parsed(lines, text, h, MessageParser.parse(h)));
        } else if (text.contains("NCCL INFO") || text.contains("NCCL WARN")) {
          nccl++;
          parsed.add(new Parsed(lines, text, null, NcclEvent.UNRECOGNIZED));
        }
      }
      start = end + 1;
    }
    return new Result(lines, nccl, parsed, overlong);
  }

  private static boolean containsNccl(byte[] b, int from, int to) {
    for (int i = from; i + 3 < to; i++) {
      if (b[i] == 'N' && b[i + 1] == 'C' && b[i + 2] == 'C' && b[i + 3] == 'L') {
        return true;
      }
    }
    return false;
  }

  /** ASCII/Latin-1 fast path; UTF-8 when the line has high bytes; CR and ANSI escapes removed. */
  static String decode(byte[] b, int from, int to) {
    if (to > from && b[to - 1] == '\r') {
      to--;
    }
    boolean high = false;
    boolean escape = false;
    for (int i = from; i < to; i++) {
      byte c = b[i];
      if (c < 0) {
        high = true;
      } else if (c == 0x1b || c == '\r') {
        escape = true;
      }
    }
    String s =
        new String(b, from, to - from, high ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    return escape ? stripEscapes(s) : s;
  }

  /** Removes ANSI CSI sequences ({@code ESC [ ... final}) and stray carriage returns. */
  static String stripEscapes(String s) {
    StringBuilder out = new StringBuilder(s.length());
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == 0x1b) {
        i++;
        if (i < s.length() && s.charAt(i) == '[') {
          i++;
          while (i < s.length() && (s.charAt(i) < 0x40 || s.charAt(i) > 0x7e)) {
            i++;
          }
        }
        i++;
      } else if (c == '\r') {
        i++;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
