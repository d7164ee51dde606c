package io.topolens.nccl;

/**
 * What the NCCL log reader knows about single lines, offered to other readers that meet NCCL lines
 * in their inputs (nccl-tests output with {@code NCCL_DEBUG=INFO}).
 */
public final class NcclLines {
  private NcclLines() {}

  /**
   * The NCCL debug level of a line ({@code INFO}, {@code WARN}, {@code TRACE}, {@code ERROR},
   * {@code ABORT}), whatever launcher or logger prefix it carries; null when it is not an NCCL
   * debug line. Lines the NCCL reader counts as NCCL lines without a full header ({@code NCCL
   * INFO}, {@code NCCL WARN} somewhere in the text) count here too.
   */
  public static String level(String line) {
    LineHeader h = LineHeader.parse(line);
    if (h != null) {
      return h.level().name();
    }
    if (line.contains("NCCL WARN")) {
      return "WARN";
    }
    if (line.contains("NCCL INFO")) {
      return "INFO";
    }
    return null;
  }

  /** The message after {@code NCCL LEVEL} of an NCCL debug line, or null. */
  public static String message(String line) {
    LineHeader h = LineHeader.parse(line);
    return h == null ? null : h.message();
  }

  /** A problem sentence when the first bytes of an input are not text, else null. */
  public static String binaryProblem(byte[] b, int len) {
    return NcclLogReader.binaryProblem(b, len);
  }

  /**
   * The text of a line's bytes {@code [from, to)} as the NCCL reader hands it to other readers
   * ({@link OtherLines}): UTF-8, without ANSI CSI sequences and carriage returns.
   */
  public static String text(byte[] b, int from, int to) {
    return BlockParser.text(b, from, to);
  }

  /** The text without ANSI CSI sequences and carriage returns. */
  public static String stripEscapes(String s) {
    return BlockParser.stripEscapes(s);
  }
}
