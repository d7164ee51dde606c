package io.topolens.nccl;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@link LineHeader#parse} on a slice's bytes for NCCL's own header ({@code host:pid:tid [dev]
 * [location] NCCL LEVEL message}, after any prefix): the fields are found by index, and the host
 * and the {@code host:pid} process key are made once per slice for each process seen, so a line's
 * header costs its message and no other string. Any other form (no pid and tid, no host, a line
 * glued to another, a number too long, an escape or a non-ASCII byte before the message, Open MPI's
 * tag inside a tagged line) is left to {@link LineHeader#parse} on the line's text: the answer is
 * always the one it gives.
 *
 * <p>Not thread-safe: one per slice (its interned strings are the slice's).
 */
final class HeaderBytes {

  /** Slots of the interning table: a slice holds lines of a few processes, rarely more. */
  private static final int SLOTS = 64;

  /** Entries kept at most, so that probing always ends at an empty slot. */
  private static final int MAX_ENTRIES = SLOTS * 3 / 4;

  /** The bytes {@code host:pid} of each entry, null where the slot is free. */
  private final byte[][] keys = new byte[SLOTS][];

  private final String[] hosts = new String[SLOTS];
  private final String[] processes = new String[SLOTS];
  private int entries;

  /**
   * The header of the line {@code buf[start, end)}, whose first {@code NCCL } is at {@code nccl},
   * when it is NCCL's own with host, pid and tid: what {@link LineHeader#parse} gives for the
   * line's text ({@link BlockParser#text}). Null to leave the line to {@link LineHeader#parse}.
   */
  LineHeader onBytes(byte[] buf, int start, int end, int nccl) {
    int levelAt = nccl;
    LineHeader.Level level;
    while (true) {
      if (levelAt < 0) {
        return null;
      }
      level = levelAfter(buf, levelAt + 5, end);
      if (level != null && (levelAt == start || LineHeader.isOpening((char) buf[levelAt - 1]))) {
        break;
      }
      levelAt = indexOfNccl(buf, levelAt + 5, end);
    }
    int msgStart = levelAt + 5 + level.name().length();
    // the text's characters are the bytes up to the message only where these are plain ASCII
    int clean = Math.min(end, msgStart + 1);
    for (int i = start; i < clean; i++) {
      byte b = buf[i];
      if (b < 0 || b == 0x1b || b == '\r') {
        return null;
      }
    }
    for (int bracket = indexOfBracket(buf, start, levelAt);
        bracket >= 0;
        bracket = indexOfBracket(buf, bracket + 2, levelAt)) {
      int dev = devAt(buf, bracket + 2, end);
      if (dev == NO_DEVICE) {
        continue; // LineHeader.headerAt gives null for this bracket: try the next
      }
      if (dev == OTHER) {
        return null;
      }
      int afterBracket = bracket + 2 + digits(buf, bracket + 2, end) + 1;
      int tidEnd = bracket;
      int tidStart = digitsBefore(buf, start, tidEnd);
      if (tidStart == tidEnd || tidStart == start || buf[tidStart - 1] != ':') {
        return null; // no pid and tid (a host alone, or none): LineHeader.hostOnly decides
      }
      int pidEnd = tidStart - 1;
      int pidStart = digitsBefore(buf, start, pidEnd);
      if (pidStart == pidEnd || pidStart == start || buf[pidStart - 1] != ':') {
        continue;
      }
      int hostEnd = pidStart - 1;
      int hostStart = hostEnd;
      while (hostStart > start && LineHeader.isHostChar((char) buf[hostStart - 1])) {
        hostStart--;
      }
      if (hostStart == hostEnd) {
        continue;
      }
      if (pidEnd - pidStart > 18 || tidEnd - tidStart > 18) {
        return null; // may not fit a long
      }
      String message = message(buf, msgStart, end);
      if (message == null
          || message.indexOf(" NCCL ") > 0
              && (message.contains(" NCCL INFO") || message.contains(" NCCL WARN"))) {
        return null; // escapes to remove, or glued to another line's header (LineHeader.glued)
      }
      if (hostStart - start >= 2
          && buf[hostStart - 1] == ':'
          && buf[hostStart - 2] == '>'
          && message.indexOf(OpenMpiTag.MARK) >= 0) {
        return null; // a line of several writes under mpirun --tag-output: LineHeader joins them
      }
      String location =
          blank(buf, afterBracket, levelAt)
              ? ""
              : new String(buf, afterBracket, levelAt - afterBracket, StandardCharsets.ISO_8859_1)
                  .strip();
      if (location.indexOf(OpenMpiTag.MARK) >= 0) {
        return null;
      }
      long pid = number(buf, pidStart, pidEnd);
      int entry = entry(buf, hostStart, hostEnd, pidEnd, pid);
      return new LineHeader(
          hosts[entry],
          pid,
          number(buf, tidStart, tidEnd),
          dev,
          level,
          location,
          message,
          processes[entry]);
    }
    return null;
  }

  /**
   * The message as the line's text has it (UTF-8, stripped), or null where the text removes escapes
   * or carriage returns from it ({@link BlockParser#decode}).
   */
  private static String message(byte[] buf, int from, int end) {
    if (from >= end) {
      return "";
    }
    String m = new String(buf, from, end - from, StandardCharsets.UTF_8);
    return m.indexOf(0x1b) >= 0 || m.indexOf('\r') >= 0 ? null : m.strip();
  }

  /** A device number {@link #devAt} cannot tell: the text decides. */
  private static final int OTHER = Integer.MIN_VALUE;

  /** No device there: {@code LineHeader.headerAt} gives null for this bracket. */
  private static final int NO_DEVICE = Integer.MIN_VALUE + 1;

  /** The device in {@code [dev]} starting at {@code i}: its number, {@link #NO_DEVICE} or OTHER. */
  private static int devAt(byte[] buf, int i, int end) {
    if (i < end && buf[i] == '-') {
      return OTHER;
    }
    int n = digits(buf, i, end);
    if (n == 0 || i + n >= end || buf[i + n] != ']') {
      return NO_DEVICE;
    }
    return n > 9 ? OTHER : (int) number(buf, i, i + n);
  }

  /** The entry of {@code host:pid}, made on its first line in the slice. */
  private int entry(byte[] buf, int hostStart, int hostEnd, int pidEnd, long pid) {
    // keyed by the bytes host:pid; the key string is made from the number, as LineHeader's is (a
    // pid with a leading zero prints without it). Hashed by the pid and the host's last bytes:
    // processes of a slice differ there
    int hash = Long.hashCode(pid) * 31 + buf[hostEnd - 1] * 7 + (hostEnd - hostStart);
    int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    while (keys[slot] != null) {
      if (keys[slot].length == pidEnd - hostStart && same(buf, hostStart, keys[slot])) {
        return slot;
      }
      slot = (slot + 1) & (SLOTS - 1);
    }
    if (entries == MAX_ENTRIES) {
      // full (a slice of this many processes is rare): start again rather than delete from an
      // open-addressed table
      Arrays.fill(keys, null);
      entries = 0;
      slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    }
    String host = new String(buf, hostStart, hostEnd - hostStart, StandardCharsets.ISO_8859_1);
    keys[slot] = Arrays.copyOfRange(buf, hostStart, pidEnd);
    hosts[slot] = host;
    processes[slot] = host + ":" + pid;
    entries++;
    return slot;
  }

  private static LineHeader.Level levelAfter(byte[] buf, int i, int end) {
    // by the first letter: the five names start with five letters
    if (i >= end) {
      return null;
    }
    LineHeader.Level l =
        switch (buf[i]) {
          case 'I' -> LineHeader.Level.INFO;
          case 'W' -> LineHeader.Level.WARN;
          case 'T' -> LineHeader.Level.TRACE;
          case 'E' -> LineHeader.Level.ERROR;
          case 'A' -> LineHeader.Level.ABORT;
          default -> null;
        };
    if (l == null) {
      return null;
    }
    byte[] name = LEVEL_NAMES[l.ordinal()];
    int after = i + name.length;
    return after <= end && same(buf, i, name) && (after == end || buf[after] == ' ') ? l : null;
  }

  /** Whether {@code buf} holds {@code b} at {@code at} (which fits): short, so a plain loop. */
  private static boolean same(byte[] buf, int at, byte[] b) {
    for (int k = 0; k < b.length; k++) {
      if (buf[at + k] != b[k]) {
        return false;
      }
    }
    return true;
  }

  private static final LineHeader.Level[] LEVELS = LineHeader.Level.values();

  private static final byte[][] LEVEL_NAMES =
      Arrays.stream(LEVELS)
          .map(l -> l.name().getBytes(StandardCharsets.US_ASCII))
          .toArray(byte[][]::new);

  /** The next {@code NCCL } at or after {@code from} in {@code [from, end)}, or -1. */
  private static int indexOfNccl(byte[] buf, int from, int end) {
    for (int i = from; i + 5 <= end; i++) {
      if (buf[i] == 'N'
          && buf[i + 1] == 'C'
          && buf[i + 2] == 'C'
          && buf[i + 3] == 'L'
          && buf[i + 4] == ' ') {
        return i;
      }
    }
    return -1;
  }

  /** The next {@code " ["} starting before {@code before}, at or after {@code from}, or -1. */
  private static int indexOfBracket(byte[] buf, int from, int before) {
    for (int i = from; i < before; i++) {
      if (buf[i] == ' ' && buf[i + 1] == '[') {
        return i;
      }
    }
    return -1;
  }

  private static int digits(byte[] buf, int from, int end) {
    int i = from;
    while (i < end && buf[i] >= '0' && buf[i] <= '9') {
      i++;
    }
    return i - from;
  }

  /** Where the digits ending at {@code end} start (no lower than {@code start}). */
  private static int digitsBefore(byte[] buf, int start, int end) {
    int j = end;
    while (j > start && buf[j - 1] >= '0' && buf[j - 1] <= '9') {
      j--;
    }
    return j;
  }

  /** The decimal number of at most 18 digits in {@code [from, to)}. */
  private static long number(byte[] buf, int from, int to) {
    long n = 0;
    for (int i = from; i < to; i++) {
      n = n * 10 + (buf[i] - '0');
    }
    return n;
  }

  /** Whether {@code [from, to)} is whitespace only, as {@link String#strip} sees ASCII. */
  private static boolean blank(byte[] buf, int from, int to) {
    for (int i = from; i < to; i++) {
      byte b = buf[i];
      if (b != ' ' && !(b >= 0x09 && b <= 0x0d) && !(b >= 0x1c && b <= 0x1f)) {
        return false;
      }
    }
    return true;
  }
}
