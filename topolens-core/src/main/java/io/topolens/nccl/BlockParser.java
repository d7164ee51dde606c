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

  /**
   * The line filter's needles after NCCL's own two ({@link Needles#ALL} from index 2), found
   * together in one pass over the lines that hold neither. NCCL's debug line {@code NCCL } and its
   * word {@code NCCL} are found by one search for the word (the first needle holds the second), so
   * the word costs no pass of its own over the lines without it.
   */
  private static final NeedleSet OTHER_NEEDLES = new NeedleSet(otherNeedles());

  private static List<String> otherNeedles() {
    if (!Needles.ALL.get(0).equals(Needles.UPPER + " ")
        || !Needles.ALL.get(1).equals(Needles.UPPER)) {
      throw new IllegalStateException(
          "Needles.ALL does not start with NCCL's debug line, then NCCL");
    }
    return Needles.ALL.subList(2, Needles.ALL.size());
  }

  /** One parsed line of a block. {@code header} is null for NCCL-looking lines without one. */
  record Parsed(int line, String text, LineHeader header, NcclEvent event) {}

  /**
   * A block's lines: how many, the NCCL ones parsed, the overlong ones, the other programs' lines
   * wanted ({@link OtherLines}: their sink's record of the block, null when none was), and where
   * the block starts in its input.
   */
  record Result(
      int lines,
      int ncclLines,
      List<Parsed> parsed,
      List<Parsed> overlong,
      OtherLines.Slice other,
      long offset) {}

  static Result parse(byte[] buf, int len) {
    return parse(buf, len, OtherLines.NONE, 0);
  }

  static Result parse(byte[] buf, int len, OtherLines wanted) {
    return parse(buf, len, wanted, 0);
  }

  /**
   * Parses {@code buf[0, len)}, whole lines that start at {@code offset} of their input, handing
   * the lines {@code wanted} to its sink's record of the block.
   */
  static Result parse(byte[] buf, int len, OtherLines wanted, long offset) {
    // One Latin-1 copy of the whole block: String.indexOf is vectorised, so finding line ends runs
    // at memory speed; lines are cut out only when they are parsed. The word NCCL is searched line
    // after line (it is in most lines of NCCL's logs); the others of the filter only in lines
    // without it, all together in one pass (NeedleSet).
    String block = new String(buf, 0, len, StandardCharsets.ISO_8859_1);
    List<Parsed> parsed = new ArrayList<>();
    List<Parsed> overlong = new ArrayList<>(0);
    Wanted others = new Wanted(block, buf, wanted);
    HeaderBytes headers = new HeaderBytes();
    LastCalls calls = new LastCalls(buf, block);
    int upper = UNKNOWN;
    NeedleSet.Hits needles = OTHER_NEEDLES.lines(buf, block);
    int lines = 0;
    int nccl = 0;
    int start = 0;
    while (start < len) {
      int end = block.indexOf('\n', start);
      if (end < 0) {
        end = len;
      }
      lines++;
      int lineLen = end - start;
      if (lineLen > MAX_LINE) {
        String head = block.substring(start, start + 120);
        overlong.add(
            new Parsed(
                lines, "line of " + lineLen + " bytes starting \"" + head + "\"", null, null));
      } else {
        if (upper != -1 && upper < start) {
          upper = block.indexOf(Needles.UPPER, start);
        }
        int needle;
        int debugLine = -1;
        if (upper >= 0 && upper < end) {
          // the word NCCL: the line's first NCCL followed by a space is NCCL's debug needle
          // (Needles.ALL's first), else the word alone is the second
          int at = upper;
          while (at >= 0 && at < end && !(at + 4 < len && block.charAt(at + 4) == ' ')) {
            at = block.indexOf(Needles.UPPER, at + 1);
          }
          needle = at >= 0 && at < end ? 0 : 1;
          debugLine = at;
          upper = at;
        } else {
          needle = other(needles, block, start, end, upper);
        }
        if (needle == 0) {
          int at = debugLine;
          LineHeader onBytes;
          int form = TraceLines.form(buf, at, end);
          if (form >= 0) {
            nccl++;
            if (LastCalls.isCall(buf, form, at, end)) {
              calls.note(lines, start, end, at, form);
            }
          } else if ((onBytes = headers.onBytes(buf, start, end, at)) != null) {
            nccl++;
            // the block's next NCCL, which the next line's search would find: only where it is in
            // this line may the line hold several messages whose line breaks were lost
            upper = block.indexOf(Needles.UPPER, at + 5);
            List<String> messages =
                upper >= 0 && upper < end ? RunTogetherLine.messages(text(buf, start, end)) : null;
            Wrap wrap = messages == null ? wrapped(onBytes, buf, block, needles, end, len) : null;
            if (messages != null) {
              runTogether(lines, text(buf, start, end), messages, parsed);
            } else if (wrap != null) {
              parsed.add(wrap.parsed(lines, text(buf, start, end), onBytes));
              nccl += wrap.lines();
              lines += wrap.lines();
              end = wrap.end();
            } else {
              NcclEvent e = MessageParser.parse(onBytes);
              if (e != NcclEvent.KNOWN) {
                // a known line changes nothing in the job (JobAssembler.accept): neither its text
                // nor its place is kept
                parsed.add(new Parsed(lines, text(buf, start, end), onBytes, e));
              }
            }
          } else {
            String text = text(buf, start, end);
            LineHeader h = LineHeader.parse(text);
            if (h != null) {
              nccl++;
              // the next NCCL of the block, which the next line's search would find: where it is in
              // this line, the line may hold several messages whose line breaks were lost
              upper = block.indexOf(Needles.UPPER, at + 5);
              List<String> messages =
                  upper >= 0 && upper < end ? RunTogetherLine.messages(text) : null;
              Wrap wrap = messages == null ? wrapped(h, buf, block, needles, end, len) : null;
              if (wrap != null) {
                parsed.add(wrap.parsed(lines, text, h));
                nccl += wrap.lines();
                lines += wrap.lines();
                end = wrap.end();
              } else if (messages == null) {
                parsed.add(new Parsed(lines, text, h, MessageParser.parse(h)));
              } else {
                runTogether(lines, text, messages, parsed);
              }
            } else if (text.contains("NCCL INFO") || text.contains("NCCL WARN")) {
              nccl++;
              parsed.add(new Parsed(lines, text, null, NcclEvent.UNRECOGNIZED));
            } else if (oldInfo(text, lines, parsed)) {
              nccl++;
            } else {
              nccl += framework(buf, block, start, end, lines, parsed);
            }
          }
        } else if (needle > 0
            && block.indexOf(Needles.OLD_INFO, start, end) >= 0
            && oldInfo(text(buf, start, end), lines, parsed)) {
          nccl++;
        } else if (needle > 0) { // another of Needles.ALL
          int last = lastErrorLine(buf, block, start, end, len, lines, parsed);
          if (last > 0) {
            // the continuation line was taken with it
            nccl += 2;
            lines++;
            end = last;
          } else {
            int framework = framework(buf, block, start, end, lines, parsed);
            nccl += framework;
            if (framework == 0 && others.any(start, end, asking(block, upper))) {
              others.read(lines, start, end);
            }
            // NCCL's WARN text pasted without its header, wrapped over lines as the WARN is
            Parsed pasted = framework == 1 ? parsed.getLast() : null;
            Wrap wrap =
                pasted != null && pasted.line() == lines && pasted.header() != null
                    ? wrapped(pasted.header(), buf, block, needles, end, len)
                    : null;
            if (wrap != null) {
              parsed.set(parsed.size() - 1, wrap.parsed(lines, pasted.text(), pasted.header()));
              nccl += wrap.lines();
              lines += wrap.lines();
              end = wrap.end();
            }
          }
        } else if (others.any(start, end, asking(block, upper))) {
          others.read(lines, start, end);
        }
      }
      start = end + 1;
    }
    calls.mergeInto(parsed, headers);
    return new Result(lines, nccl, parsed, overlong, others.slice, offset);
  }

  private static final int UNKNOWN = -2;

  /** The most lines a WARN is read over when a terminal or a document wrapped it. */
  private static final int MAX_WRAPPED = 4;

  /** A wrapped line longer than this is a line of its own, not a WARN's continuation. */
  private static final int MAX_WRAP_LINE = 300;

  /**
   * The lines that continue a wrapped WARN: how many, where the last ends, and their text joined to
   * the WARN's message.
   */
  private record Wrap(int lines, int end, String tail) {

    /** The WARN read as one line, its evidence the lines joined. */
    Parsed parsed(int line, String text, LineHeader h) {
      LineHeader joined =
          new LineHeader(
              h.host(),
              h.pid(),
              h.tid(),
              h.dev(),
              h.level(),
              h.location(),
              h.message().strip() + " " + tail,
              h.process());
      return new Parsed(line, text.strip() + " " + tail, joined, MessageParser.parse(joined));
    }
  }

  /**
   * A WARN wrapped over several lines by a terminal, a web page or a document ({@code
   * transport/nvls.cc:379 NCCL WARN Failed to bind NVLink SHARP} then {@code (NVLS) Multicast
   * memory of size 2097152 : CUDA error 401}): the lines after it that continue its sentence, or
   * null. A continuation holds no NCCL word and none of the filter's needles (no line any reader
   * reads: two real log lines are never joined), is short, and goes on mid-sentence: it starts with
   * a lower-case letter, an opening parenthesis or a quote, after any indentation; the message so
   * far must not end a sentence ({@code .}).
   */
  private static Wrap wrapped(
      LineHeader h, byte[] buf, String block, NeedleSet.Hits needles, int end, int len) {
    if (h.level() != LineHeader.Level.WARN) {
      return null;
    }
    StringBuilder tail = new StringBuilder();
    String so = h.message().strip();
    int n = 0;
    int last = end;
    while (n < MAX_WRAPPED && last < len && !so.endsWith(".")) {
      int from = last + 1;
      int to = block.indexOf('\n', from);
      if (to < 0) {
        to = len;
      }
      if (to - from > MAX_WRAP_LINE || to <= from) {
        break;
      }
      String line = text(buf, from, to).strip();
      if (line.isEmpty()
          || !continues(line.charAt(0))
          || block.indexOf(Needles.UPPER, from, to) >= 0
          || needles.first(from, to) >= 0) {
        break;
      }
      if (!tail.isEmpty()) {
        tail.append(' ');
      }
      tail.append(line);
      so = line;
      n++;
      last = to;
    }
    return n == 0 ? null : new Wrap(n, last, tail.toString());
  }

  private static boolean continues(char c) {
    return Character.isLowerCase(c) || c == '(' || c == '\'';
  }

  /**
   * The messages of a line whose line breaks were lost ({@link RunTogetherLine}), each read on its
   * own; the evidence of each is the line as it stands.
   */
  private static void runTogether(
      int line, String text, List<String> messages, List<Parsed> parsed) {
    for (String m : messages) {
      LineHeader mh = LineHeader.parse(m);
      parsed.add(
          mh == null
              ? new Parsed(line, text, null, NcclEvent.UNRECOGNIZED)
              : new Parsed(line, text, mh, MessageParser.parse(mh)));
    }
  }

  /** An INFO line of NCCL before 2.4, without the word NCCL: parsed when it is one. */
  private static boolean oldInfo(String text, int line, List<Parsed> parsed) {
    LineHeader h = LineHeader.oldInfo(text);
    if (h == null) {
      return false;
    }
    parsed.add(new Parsed(line, text, h, MessageParser.parse(h)));
    return true;
  }

  /**
   * The index in {@link Needles#ALL} of the first needle after NCCL's two in a line without the
   * word NCCL, or -1. {@code upper} is the block's next NCCL after the line (-1 where there is
   * none): the line holding it never asks (lines with the word are read above), so the needles'
   * scan need not look ahead past its start.
   */
  private static int other(NeedleSet.Hits needles, String block, int start, int end, int upper) {
    int i = needles.first(start, end, asking(block, upper));
    return i < 0 ? -1 : i + 2;
  }

  /**
   * Where the lines after one without NCCL's debug needle end that ask the needle searches about
   * themselves, as far as the block's next NCCL ({@code upper}, -1 where there is none) tells: the
   * end of the line before the one holding it. The searches look ahead no further (only their speed
   * depends on it): a verbose NCCL log's blocks ask about one line in thousands.
   */
  private static int asking(String block, int upper) {
    return upper < 0 ? block.length() : block.lastIndexOf('\n', upper);
  }

  /**
   * The other programs' lines of a block: whether a line is wanted, and the sink's record of the
   * block's wanted lines. One finder over the block tells which needles a line holds (a needle
   * absent from a window of lines costs one search for the window, not one per line), and the sink
   * is told too, so it need not search the line for them again; where escapes were removed from a
   * line, they are searched in its text.
   */
  private static final class Wanted {
    private final String block;
    private final byte[] buf;
    private final OtherLines lines;

    /**
     * Made at the first line asked about: a block of NCCL's lines alone asks about none, and its
     * sample of the block ({@link Needles.Finder#sample}) is then not taken.
     */
    private Needles.Finder finder;

    /** The needles' bits: a line holding one is wanted. */
    private final long wanting;

    /** The needles and marks of the line last asked about. */
    private long found;

    /** The sink's record of the block, made at its first wanted line. */
    private OtherLines.Slice slice;

    /**
     * The next escape and carriage return at or after the last wanted line's start (the block's
     * length where there is none): most blocks have neither, and two searches of every wanted line
     * for them were a tenth of the step lines' reading.
     */
    private int nextEscape = -1;

    private int nextReturn = -1;

    Wanted(String block, byte[] buf, OtherLines lines) {
      this.block = block;
      this.buf = buf;
      this.lines = lines;
      this.wanting = lines.wanting();
    }

    /**
     * Whether the line {@code [start, end)} holds a needle; lines asked about in order, the
     * searches looking ahead no further than {@code until} ({@link #asking}).
     */
    boolean any(int start, int end, int until) {
      if (finder == null) {
        finder = new Needles.Finder(block, lines.searched());
      }
      found = finder.which(start, end, until);
      return (found & wanting) != 0;
    }

    private int next(int c, int from) {
      int at = block.indexOf(c, from);
      return at < 0 ? block.length() : at;
    }

    /** Tells the sink's record of the wanted line just asked about. */
    void read(int line, int start, int end) {
      if (slice == null) {
        slice = lines.sink().slice(block, buf);
      }
      if (nextEscape < start) {
        nextEscape = next(0x1b, start);
      }
      if (nextReturn < start) {
        nextReturn = next('\r', start);
      }
      if (nextEscape < end || nextReturn < end) {
        String text = decode(buf, start, end);
        slice.line(line, start, end, text, lines.holds(text));
      } else {
        // the text decodes the line's bytes one for one where they are ASCII, so it holds the
        // (ASCII) needles found on the bytes, and no other
        slice.line(line, start, end, null, found);
      }
    }
  }

  /** A framework's line about NCCL (PyTorch's errors, the watchdog): 1 when it is one, else 0. */
  private static int framework(
      byte[] buf, String block, int start, int end, int line, List<Parsed> parsed) {
    String text = text(buf, start, end);
    NcclEvent e = DriverLine.parse(text);
    if (e == null) {
      e = FrameworkLine.parse(text);
    }
    if (e == null) {
      e = StackFrameLine.parse(text);
    }
    // a traceback flattened onto one line: "... NCCL error in: ... Last error: <NCCL's text>"
    int last = FrameworkLine.lastError(text);
    NcclEvent lastText =
        last < 0 || text.substring(last).isBlank()
            ? null
            : FrameworkLine.lastErrorText("", text.substring(last));
    if (lastText == null) {
      // XLA's "... failed: invalid usage. Last NCCL warning(error) log entry (may be unrelated)
      // '...'"
      lastText = FrameworkLine.lastWarning(text);
    }
    // what the line says beside NCCL: a launch command, a GPU model it names
    NcclEvent beside = launch(buf, block, end, text);
    if (beside == null
        && (text.contains(Needles.GEFORCE)
            || text.contains(Needles.RTX_4090)
            || text.contains(Needles.GPU_LISTED)
            || text.contains(Needles.CUDA_CAPABILITY)
            || text.contains(Needles.ACCELERATE_NO_P2P))) {
      beside = GpuNameLine.parse(text);
    }
    if (beside != null) {
      parsed.add(new Parsed(line, text, null, beside));
      if (e == null && lastText == null) {
        return 1;
      }
    }
    if (e == null && lastText == null) {
      if (NcclFailureTexts.holds(text) || text.contains(Needles.VERBS_QP_FAILED)) {
        // NCCL's WARN text without its header (a title, a quote): read as the WARN line it was
        LineHeader h = LineHeader.pasted(text);
        parsed.add(new Parsed(line, text, h, MessageParser.parse(h)));
        return 1;
      }
      return 0;
    }
    if (e != null) {
      parsed.add(new Parsed(line, text, null, e));
    }
    if (lastText != null) {
      parsed.add(new Parsed(line, text, null, lastText));
    }
    return 1;
  }

  /** How many lines a launch command continued with {@code \} is read over, at most. */
  private static final int MAX_CONTINUED = 64;

  /**
   * The launch command that starts on this line ({@link LaunchLine}), read with the lines it
   * continues on ({@code mpirun -np 2 \} then {@code -H a:1,b:1 \}); those lines are still read on
   * their own as well. Null when the line starts none.
   */
  private static NcclEvent launch(byte[] buf, String block, int end, String text) {
    if (!text.contains(Needles.DOCKER_RUN)
        && !text.contains(Needles.MPIRUN)
        && !text.contains(Needles.MPIEXEC)) {
      return null;
    }
    StringBuilder joined = new StringBuilder(text);
    int len = block.length();
    for (int n = 0; n < MAX_CONTINUED && endsContinued(joined) && end < len; n++) {
      int next = block.indexOf('\n', end + 1);
      if (next < 0) {
        next = len;
      }
      if (next - end - 1 > MAX_LINE) {
        break;
      }
      joined.setLength(joined.length() - 1);
      joined.append(' ').append(text(buf, end + 1, next));
      end = next;
    }
    return LaunchLine.parse(joined.toString());
  }

  /** Whether a command line goes on on the next line (a {@code \} at its end). */
  private static boolean endsContinued(StringBuilder s) {
    int i = s.length() - 1;
    while (i >= 0 && (s.charAt(i) == ' ' || s.charAt(i) == '\r')) {
      i--;
    }
    if (i >= 0 && s.charAt(i) == '\\') {
      s.setLength(i + 1);
      return true;
    }
    return false;
  }

  /**
   * {@code Last error:} alone at the end of its line: NCCL's last error is the next line, taken as
   * a warning with its line number. Returns the end of that next line, or -1 when this is not such
   * a line (or the block ends here: the text is then lost, as a line cut by a block would be).
   */
  private static int lastErrorLine(
      byte[] buf, String block, int start, int end, int len, int line, List<Parsed> parsed) {
    // within the line: searching on to the block's end cost a pass over the rest of the block for
    // every line holding another needle (most of the filter's time on a training job's own lines)
    int at = block.indexOf(Needles.LAST_ERROR, start, end);
    if (at < 0 || !block.substring(at + Needles.LAST_ERROR.length(), end).isBlank()) {
      return -1;
    }
    if (end >= len) {
      return -1;
    }
    int nextEnd = block.indexOf('\n', end + 1);
    if (nextEnd < 0) {
      nextEnd = len;
    }
    if (nextEnd - end - 1 > MAX_LINE) {
      return -1;
    }
    String prefix = text(buf, start, at);
    String continuation = text(buf, end + 1, nextEnd);
    NcclEvent e = FrameworkLine.lastErrorText(prefix, continuation);
    if (e == null) {
      return -1;
    }
    parsed.add(new Parsed(line + 1, continuation, null, e));
    return nextEnd;
  }

  /**
   * The line as text: decoded as UTF-8 (ASCII, the common case, is found by the JDK's vectorised
   * check and copied as Latin-1), the slow path only for lines with escapes or carriage returns.
   */
  static String text(byte[] buf, int start, int end) {
    String s = new String(buf, start, end - start, StandardCharsets.UTF_8);
    if (s.indexOf(0x1b) >= 0 || s.indexOf('\r') >= 0) {
      return decode(buf, start, end);
    }
    return s;
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
