package io.topolens.nccl;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * NCCL's per-call and proxy traces ({@code NCCL_DEBUG_SUBSYS=COLL,PROXY...}: {@code NCCL INFO
 * AllGather: opCount ...}, {@code NCCL INFO New proxy send connection ...}), recognised on a
 * slice's bytes. They are most lines of a verbose log (95 % of bench/run.sh's nccl shape) and the
 * job keeps only the last call line of each thread and communicator (for {@code rank-behind}), so
 * the reader counts them without cutting them out and leaves the calls to {@link LastCalls}, which
 * notes their places and parses only each block's last ones. A form is compared eight bytes at a
 * time, its candidates chosen by its first byte: every NCCL line of a verbose log asks, and
 * comparing its strings one character at a time was a seventh of the parse threads' samples
 * (docs/performance.md, eleventh pass).
 */
final class TraceLines {
  private TraceLines() {}

  /** What precedes every form: the level of NCCL's INFO lines. */
  static final String INFO = "NCCL INFO ";

  /**
   * The forms after {@link #INFO}, each a message's whole first word or words. The calls are the
   * names enqueue.cc prints (collectives.cc's opName): 2.4's five collectives, Send and Recv
   * (2.7+), AlltoAll, Gather and Scatter (2.28+); AllToAll and SendRecv are RCCL's and MSCCL's.
   */
  static final List<String> FORMS;

  /**
   * The calls of {@link #FORMS} whose last per thread and communicator {@link LastCalls} keeps:
   * {@link #FORMS} begins with them, in this order, so a form's index below their count is a
   * call's.
   */
  static final List<String> CALLS =
      List.of(
          "AllGather: ",
          "AllReduce: ",
          "ReduceScatter: ",
          "Broadcast: ",
          "Reduce: ",
          "Send: ",
          "Recv: ",
          "AlltoAll: ",
          "Gather: ",
          "Scatter: ");

  static {
    FORMS =
        Stream.concat(
                CALLS.stream(),
                Stream.of(
                    "AllToAll: ",
                    "SendRecv: ",
                    "Connected to proxy ",
                    "New proxy ",
                    "UDS converted handle",
                    "Imported shareable buffer",
                    "Allocated shareable buffer",
                    "[Proxy "))
            .toList();
  }

  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** A string's bytes as the little-endian words that compare it, the last one masked. */
  private record Words(int index, int length, long[] words, long[] masks) {
    static Words of(String s) {
      return of(-1, s);
    }

    static Words of(int index, String s) {
      byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
      int n = (b.length + 7) / 8;
      long[] words = new long[n];
      long[] masks = new long[n];
      for (int i = 0; i < b.length; i++) {
        words[i / 8] |= (b[i] & 0xffL) << (8 * (i % 8));
        masks[i / 8] |= 0xffL << (8 * (i % 8));
      }
      return new Words(index, b.length, words, masks);
    }

    /** Whether {@code buf[at, end)} starts with these bytes. */
    boolean at(byte[] buf, int at, int end) {
      if (at + length > end) {
        return false;
      }
      for (int i = 0; i < words.length; i++) {
        if ((word(buf, at + 8 * i) & masks[i]) != words[i]) {
          return false;
        }
      }
      return true;
    }

    /** The eight bytes at {@code at}; past the array's end, zeros (masked off by the caller). */
    private static long word(byte[] buf, int at) {
      if (at + 8 <= buf.length) {
        return (long) LONG.get(buf, at);
      }
      long w = 0;
      for (int i = 0; at + i < buf.length && i < 8; i++) {
        w |= (buf[at + i] & 0xffL) << (8 * i);
      }
      return w;
    }
  }

  private static final Words INFO_WORDS = Words.of(INFO);

  /** Per first byte, the forms starting with it (none for most bytes). */
  private static final Words[][] BY_FIRST = byFirst();

  private static Words[][] byFirst() {
    List<List<Words>> table = new ArrayList<>();
    for (int c = 0; c < 256; c++) {
      table.add(new ArrayList<>());
    }
    for (int i = 0; i < FORMS.size(); i++) {
      String f = FORMS.get(i);
      table.get(f.charAt(0)).add(Words.of(i, f));
    }
    Words[][] out = new Words[256][];
    for (int c = 0; c < 256; c++) {
      out[c] = table.get(c).toArray(Words[]::new);
    }
    return out;
  }

  /**
   * Whether the line ending at {@code end} holds {@link #INFO} at {@code nccl}, followed by one of
   * the {@link #FORMS}, all of it before {@code end}.
   */
  static boolean at(byte[] buf, int nccl, int end) {
    return form(buf, nccl, end) >= 0;
  }

  /**
   * The index in {@link #FORMS} of the form the line ending at {@code end} holds after {@link
   * #INFO} at {@code nccl}, or -1 where {@link #at} is false. The forms differ before their ends,
   * so at most one matches.
   */
  static int form(byte[] buf, int nccl, int end) {
    if (nccl < 0 || !INFO_WORDS.at(buf, nccl, end)) {
      return -1;
    }
    int m = nccl + INFO.length();
    if (m >= end) {
      return -1;
    }
    for (Words f : BY_FIRST[buf[m] & 0xff]) {
      if (f.at(buf, m, end)) {
        return f.index();
      }
    }
    return -1;
  }
}
