package io.topolens.nccl;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A block's collective-call lines ({@link CollectiveLine}), of which only the last of each thread
 * and communicator is parsed: the job keeps each process's last call on each communicator, and a
 * log with NCCL_DEBUG_SUBSYS=COLL holds millions of them. A line is noted on its bytes (its header
 * up to {@code NCCL}, the comm pointer, whether it is Send or Recv), without a String; the notes
 * kept are parsed once the block is read. Past {@link #MAX_KEYS} keys in one block every line is
 * kept (nothing is dropped, only parsed).
 */
final class LastCalls {

  private static final int SLOTS = 256;
  static final int MAX_KEYS = SLOTS * 3 / 4;
  private static final String COMM = " comm ";

  private final byte[] buf;
  private final String block;

  // per slot: the key's header [start, at), comm pointer [commStart, commEnd), kind; the last line
  private final int[] headStart = new int[SLOTS];
  private final int[] headEnd = new int[SLOTS];
  private final int[] commStart = new int[SLOTS];
  private final int[] commEnd = new int[SLOTS];
  private final boolean[] p2p = new boolean[SLOTS];
  private final boolean[] used = new boolean[SLOTS];
  private final int[] line = new int[SLOTS];
  private final int[] lineStart = new int[SLOTS];
  private final int[] lineEnd = new int[SLOTS];
  private int keys;

  /** Lines kept beyond the table: line, start, end. */
  private int[] overflow = new int[0];

  private int overflowed;

  LastCalls(byte[] buf, String block) {
    this.buf = buf;
    this.block = block;
  }

  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The word after a call's form: {@code opCount } is eight bytes, one long. */
  private static final long OP_COUNT =
      (long) LONG.get("opCount ".getBytes(StandardCharsets.ISO_8859_1), 0);

  /**
   * The lengths of {@link TraceLines#CALLS}, which are the first of {@link TraceLines#FORMS}: a
   * form index below this array's length is a call's.
   */
  private static final int[] CALL_LENGTH =
      TraceLines.CALLS.stream().mapToInt(String::length).toArray();

  private static final int SEND = TraceLines.CALLS.indexOf("Send: ");
  private static final int RECV = TraceLines.CALLS.indexOf("Recv: ");

  /**
   * Whether the trace line ending at {@code end} whose {@code NCCL INFO} at {@code nccl} is
   * followed by {@link TraceLines#FORMS}' {@code form} ({@link TraceLines#form}) is a call's line
   * ({@code AllReduce: opCount }): the form found once serves both, and the word after it is one
   * long compared.
   */
  static boolean isCall(byte[] buf, int form, int nccl, int end) {
    if (form < 0 || form >= CALL_LENGTH.length) {
      return false;
    }
    int m = nccl + TraceLines.INFO.length() + CALL_LENGTH[form];
    return m + 8 <= end && (long) LONG.get(buf, m) == OP_COUNT;
  }

  /**
   * Notes the call line {@code [start, end)} (line number {@code n}) whose NCCL is at {@code at},
   * its form {@code form} ({@link #isCall}).
   */
  void note(int n, int start, int end, int at, int form) {
    // " comm 0x..." stands near the end, before "[nranks=N] stream ...": searched from there
    int comm = lastComm(at, end);
    if (comm < at) {
      return; // no communicator named: the line cannot be placed
    }
    int cs = comm + COMM.length();
    int ce = cs;
    while (ce < end && buf[ce] != ' ') {
      ce++;
    }
    boolean isP2p = form == SEND || form == RECV;
    if (keys >= MAX_KEYS) {
      keep(n, start, end);
      return;
    }
    int h = hash(start, at) * 31 + hash(cs, ce) + (isP2p ? 1 : 0);
    int slot = h & (SLOTS - 1);
    while (used[slot]) {
      if (p2p[slot] == isP2p
          && same(headStart[slot], headEnd[slot], start, at)
          && same(commStart[slot], commEnd[slot], cs, ce)) {
        line[slot] = n;
        lineStart[slot] = start;
        lineEnd[slot] = end;
        return;
      }
      slot = (slot + 1) & (SLOTS - 1);
    }
    used[slot] = true;
    keys++;
    headStart[slot] = start;
    headEnd[slot] = at;
    commStart[slot] = cs;
    commEnd[slot] = ce;
    p2p[slot] = isP2p;
    line[slot] = n;
    lineStart[slot] = start;
    lineEnd[slot] = end;
  }

  private static final long SIX_BYTES = -1L >>> 16;

  /** {@link #COMM}'s six bytes as the low bytes of a little-endian long. */
  private static final long COMM_WORD = word(COMM);

  private static long word(String s) {
    byte[] b = Arrays.copyOf(s.getBytes(StandardCharsets.ISO_8859_1), 8);
    return (long) LONG.get(b, 0) & SIX_BYTES;
  }

  /**
   * Where the line's last {@link #COMM} starting at or after {@code at} stands, or -1: what {@code
   * block.lastIndexOf(COMM, end - COMM.length())} gives where that is {@code at} or later, on the
   * bytes (the String's backward search compares a character at a time; here a place costs a byte's
   * test, and a space followed by {@code c} a word's).
   */
  private int lastComm(int at, int end) {
    for (int i = end - COMM.length(); i >= at; i--) {
      if (buf[i] == ' ' && buf[i + 1] == 'c') {
        if (i + 8 <= buf.length
            ? ((long) LONG.get(buf, i) & SIX_BYTES) == COMM_WORD
            : block.startsWith(COMM, i)) {
          return i;
        }
      }
    }
    return -1;
  }

  private void keep(int n, int start, int end) {
    if (overflowed * 3 + 3 > overflow.length) {
      overflow = Arrays.copyOf(overflow, Math.max(48, overflow.length * 2));
    }
    overflow[overflowed * 3] = n;
    overflow[overflowed * 3 + 1] = start;
    overflow[overflowed * 3 + 2] = end;
    overflowed++;
  }

  /**
   * Whether {@code buf[a, aEnd)} and {@code buf[b, bEnd)} hold the same bytes, compared eight at a
   * time: {@link Arrays#equals}' range checks and set-up cost more than a header's few words.
   */
  private boolean same(int a, int aEnd, int b, int bEnd) {
    int n = aEnd - a;
    if (n != bEnd - b) {
      return false;
    }
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      if ((long) LONG.get(buf, a + i) != (long) LONG.get(buf, b + i)) {
        return false;
      }
    }
    for (; i < n; i++) {
      if (buf[a + i] != buf[b + i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * A hash of {@code buf[from, to)} read eight bytes at a time (a header and a pointer are a few
   * words): the same bytes give the same hash wherever they stand.
   */
  private int hash(int from, int to) {
    long h = 1;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      h = h * 0x9E3779B97F4A7C15L + (long) LONG.get(buf, i);
    }
    int rest = to - i;
    if (rest > 0) {
      long w;
      if (i + 8 <= buf.length) {
        w = (long) LONG.get(buf, i) & (-1L >>> (64 - 8 * rest));
      } else {
        w = 0;
        for (int k = 0; k < rest; k++) {
          w |= (buf[i + k] & 0xffL) << (8 * k);
        }
      }
      h = h * 0x9E3779B97F4A7C15L + w;
    }
    return (int) (h ^ (h >>> 29) ^ (h >>> 41));
  }

  /**
   * The kept lines parsed, merged in line order into {@code parsed} (itself in line order), so that
   * each call is applied between the init and teardown lines around it.
   */
  void mergeInto(List<BlockParser.Parsed> parsed, HeaderBytes headers) {
    if (keys == 0 && overflowed == 0) {
      return;
    }
    List<BlockParser.Parsed> calls = new ArrayList<>(keys + overflowed);
    for (int s = 0; s < SLOTS; s++) {
      if (used[s]) {
        add(calls, line[s], lineStart[s], lineEnd[s], headers);
      }
    }
    for (int i = 0; i < overflowed; i++) {
      add(calls, overflow[i * 3], overflow[i * 3 + 1], overflow[i * 3 + 2], headers);
    }
    calls.sort((a, b) -> Integer.compare(a.line(), b.line()));
    List<BlockParser.Parsed> merged = new ArrayList<>(parsed.size() + calls.size());
    int i = 0;
    for (BlockParser.Parsed c : calls) {
      while (i < parsed.size() && parsed.get(i).line() < c.line()) {
        merged.add(parsed.get(i++));
      }
      merged.add(c);
    }
    while (i < parsed.size()) {
      merged.add(parsed.get(i++));
    }
    parsed.clear();
    parsed.addAll(merged);
  }

  private void add(List<BlockParser.Parsed> calls, int n, int start, int end, HeaderBytes headers) {
    int at = block.indexOf("NCCL INFO ", start, end);
    String text = BlockParser.text(buf, start, end);
    LineHeader h = headers.onBytes(buf, start, end, at);
    if (h == null) {
      h = LineHeader.parse(text);
    }
    NcclEvent.CollectiveCall call = h == null ? null : CollectiveLine.parse(h.message());
    if (call != null) {
      calls.add(new BlockParser.Parsed(n, text, h, call));
    }
  }
}
