package io.topolens.nccl;

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

  /** Whether the trace line at {@code nccl} ({@code NCCL INFO X: opCount}) is a call's line. */
  static boolean isCall(String block, int nccl, int end) {
    int m = nccl + "NCCL INFO ".length();
    return m < end
        && switch (block.charAt(m)) {
          case 'A' ->
              block.startsWith("AllReduce: opCount ", m)
                  || block.startsWith("AllGather: opCount ", m);
          case 'R' ->
              block.startsWith("ReduceScatter: opCount ", m)
                  || block.startsWith("Reduce: opCount ", m)
                  || block.startsWith("Recv: opCount ", m);
          case 'B' -> block.startsWith("Broadcast: opCount ", m);
          case 'S' -> block.startsWith("Send: opCount ", m);
          default -> false;
        };
  }

  /**
   * Notes the call line {@code [start, end)} (line number {@code n}) whose NCCL is at {@code at}.
   */
  void note(int n, int start, int end, int at) {
    // " comm 0x..." stands near the end, before "[nranks=N] stream ...": searched from there
    int comm = block.lastIndexOf(COMM, end - COMM.length());
    if (comm < at) {
      return; // no communicator named: the line cannot be placed
    }
    int cs = comm + COMM.length();
    int ce = block.indexOf(' ', cs, end);
    if (ce < 0) {
      ce = end;
    }
    char op = block.charAt(at + "NCCL INFO ".length());
    boolean isP2p =
        op == 'S' || (op == 'R' && block.startsWith("Recv", at + "NCCL INFO ".length()));
    if (keys >= MAX_KEYS) {
      keep(n, start, end);
      return;
    }
    int h = hash(start, at) * 31 + hash(cs, ce) + (isP2p ? 1 : 0);
    int slot = h & (SLOTS - 1);
    while (used[slot]) {
      if (p2p[slot] == isP2p
          && Arrays.equals(buf, headStart[slot], headEnd[slot], buf, start, at)
          && Arrays.equals(buf, commStart[slot], commEnd[slot], buf, cs, ce)) {
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

  private void keep(int n, int start, int end) {
    if (overflowed * 3 + 3 > overflow.length) {
      overflow = Arrays.copyOf(overflow, Math.max(48, overflow.length * 2));
    }
    overflow[overflowed * 3] = n;
    overflow[overflowed * 3 + 1] = start;
    overflow[overflowed * 3 + 2] = end;
    overflowed++;
  }

  private int hash(int from, int to) {
    int h = 1;
    for (int i = from; i < to; i++) {
      h = 31 * h + buf[i];
    }
    return h;
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
