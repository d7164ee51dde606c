package io.topolens.nccl;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every place where one of several needles starts in a block of bytes. The long needles ({@link
 * #LONG} bytes or more) are found in one pass: Wu and Manber's shift table over triples of bytes
 * (hashed to 16 bits). Each long needle is keyed by {@code m} of its bytes ({@code m} the shortest
 * long needle's length): the {@code m} whose triples are least common in logs ({@link
 * CommonTriples}), not simply its first, so that the pass seldom stops at a training job's words.
 * Where a triple ends no needle's key, the pass moves on by up to {@code m - 2} bytes at once;
 * where one may end, the needles it may end are compared in place. Triples, not pairs: with some
 * three hundred needles of English words (NCCL's failure texts) nearly every common pair of letters
 * ends some needle's first bytes, which cut the skips; triples of them are far fewer. So three
 * hundred needles cost one pass that looks at about one byte in five, instead of one search per
 * needle. The few short ones are searched one by one.
 *
 * <p>Thread-safety: immutable once built; each {@link #scan} fills its own {@link Hits}.
 */
final class NeedleSet {
  /**
   * Needles shorter than this are searched one by one (the JDK's vectorised search): a short needle
   * would keep the pass from moving on by more than a few bytes at a time.
   */
  static final int LONG = 8;

  private final byte[][] needles;

  /** The indexes of the short needles, and of the long ones the pass finds. */
  private final int[] shortOnes;

  private final String[] shortTexts;

  /**
   * Per short needle, what is searched for it: the needle without its leading and trailing spaces
   * ({@code WARN} for {@code " WARN "}), whose places are then checked for the spaces. The JDK's
   * search compares a needle's first and last characters at once over a run of bytes, and a space
   * at both ends matches there at nearly every word of a log.
   */
  private final String[] shortCores;

  /** Per short needle, how many spaces lead it and how many trail it. */
  private final int[] shortLead;

  private final int[] shortTrail;

  private final int shortest;

  /** How far the window's end may move on from a triple of bytes (0: a needle may end here). */
  private final byte[] shift = new byte[1 << 16];

  /**
   * The long needles by their first 8 bytes (read as one little-endian long): an open-addressed
   * table, so a place where the shift table says a needle may end costs one probe, and only needles
   * that start with the same 8 bytes are compared further.
   */
  private final long[] prefixes;

  private final int[][] byPrefix;
  private final int prefixBits;

  /**
   * Per needle, where in it the bytes it is keyed by start (its first {@link #shortest} bytes whose
   * triples are least common in logs, {@link #window}): the shift table and the prefix table are
   * made of those bytes, so a place where they end is where the needle may end {@code length - at -
   * shortest} bytes later.
   */
  private final int[] keyAt;

  /** The needles, in the order their indexes name them; ASCII, without line breaks. */
  NeedleSet(List<String> needles) {
    this.needles =
        needles.stream().map(n -> n.getBytes(StandardCharsets.ISO_8859_1)).toArray(byte[][]::new);
    List<Integer> shortList = new ArrayList<>();
    int m = Integer.MAX_VALUE;
    for (int i = 0; i < this.needles.length; i++) {
      if (this.needles[i].length < LONG) {
        shortList.add(i);
      } else {
        m = Math.min(m, this.needles[i].length);
      }
    }
    shortOnes = shortList.stream().mapToInt(Integer::intValue).toArray();
    shortTexts = shortList.stream().map(needles::get).toArray(String[]::new);
    shortCores = new String[shortTexts.length];
    shortLead = new int[shortTexts.length];
    shortTrail = new int[shortTexts.length];
    for (int k = 0; k < shortTexts.length; k++) {
      String t = shortTexts[k];
      int lead = 0;
      while (lead < t.length() && t.charAt(lead) == ' ') {
        lead++;
      }
      int trail = 0;
      while (trail < t.length() - lead && t.charAt(t.length() - 1 - trail) == ' ') {
        trail++;
      }
      boolean spaced = lead + trail > 0 && lead + trail < t.length();
      shortCores[k] = spaced ? t.substring(lead, t.length() - trail) : t;
      shortLead[k] = spaced ? lead : 0;
      shortTrail[k] = spaced ? trail : 0;
    }
    shortest = m == Integer.MAX_VALUE ? LONG : m;
    Arrays.fill(shift, (byte) Math.min(shortest - 2, Byte.MAX_VALUE));
    int longOnes = this.needles.length - shortOnes.length;
    prefixBits = Math.max(4, 32 - Integer.numberOfLeadingZeros(longOnes * 4));
    prefixes = new long[1 << prefixBits];
    byPrefix = new int[1 << prefixBits][];
    keyAt = new int[this.needles.length];
    short[] common = commonTriples();
    for (int i = 0; i < this.needles.length; i++) {
      byte[] n = this.needles[i];
      if (n.length < LONG) {
        continue;
      }
      int at = window(n, shortest, common);
      keyAt[i] = at;
      for (int j = 2; j < shortest; j++) {
        int h = tripleIn(n, at + j);
        shift[h] = (byte) Math.min(shift[h], shortest - 1 - j);
      }
      long prefix = (long) LONG_BYTES.get(n, at);
      int slot = slot(prefix);
      while (byPrefix[slot] != null && prefixes[slot] != prefix) {
        slot = (slot + 1) & (prefixes.length - 1);
      }
      prefixes[slot] = prefix;
      byPrefix[slot] = byPrefix[slot] == null ? new int[] {i} : append(byPrefix[slot], i);
    }
  }

  /**
   * Per hashed triple ({@link #triple}), how common it is in logs: 1024 for the commonest of {@link
   * CommonTriples}, 0 for one not among them (collisions only change which bytes key a needle).
   */
  static short[] commonTriples() {
    short[] common = new short[1 << 16];
    String t = CommonTriples.TEXT;
    int n = t.length() / 3;
    for (int k = 0; k < n; k++) {
      int bytes = t.charAt(3 * k) | t.charAt(3 * k + 1) << 8 | t.charAt(3 * k + 2) << 16;
      int h = triple(bytes);
      common[h] = (short) Math.max(common[h], n - k);
    }
    return common;
  }

  /**
   * Where in {@code n} the {@code m} bytes start that key it: those whose triples are least common
   * in logs, the last (where the pass stops to compare) counted four times; the first such.
   */
  static int window(byte[] n, int m, short[] common) {
    int best = 0;
    long bestScore = Long.MAX_VALUE;
    for (int at = 0; at + m <= n.length; at++) {
      long score = 4L * common[tripleIn(n, at + m - 1)];
      for (int j = 2; j < m - 1; j++) {
        score += common[tripleIn(n, at + j)];
      }
      if (score < bestScore) {
        best = at;
        bestScore = score;
      }
    }
    return best;
  }

  /** The hashed triple of {@code n} ending at {@code end}. */
  private static int tripleIn(byte[] n, int end) {
    return triple((n[end - 2] & 0xff) | (n[end - 1] & 0xff) << 8 | (n[end] & 0xff) << 16);
  }

  private static int[] append(int[] a, int i) {
    int[] b = Arrays.copyOf(a, a.length + 1);
    b[a.length] = i;
    return b;
  }

  private static final VarHandle INT_BYTES =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_BYTES =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * Three bytes (the low 24 bits, the first byte lowest) hashed to 16 bits; collisions only shorten
   * a skip.
   */
  private static int triple(int bytes) {
    return (bytes * 0x9E3779B1) >>> 16;
  }

  /** The triple of bytes ending at {@code end} ({@code end >= 3}), hashed as {@link #triple}. */
  private static int tripleAt(byte[] b, int end) {
    return triple((int) INT_BYTES.get(b, end - 3) >>> 8);
  }

  private int slot(long prefix) {
    return (int) ((prefix * 0x9E3779B97F4A7C15L) >>> (64 - prefixBits));
  }

  /**
   * Where the needles start in {@code b[from, to)}, by place and, at one place, by needle index;
   * each needle lies wholly inside the range.
   */
  Hits scan(byte[] b, int from, int to) {
    Hits hits = new Hits(this, b, null, to);
    scan(b, new String(b, StandardCharsets.ISO_8859_1), from, to, hits);
    return hits;
  }

  /**
   * The needles of a block of whole lines ({@code block} its Latin-1 view), found as lines are
   * asked about: a window of lines at a time, so a block whose lines are rarely asked about is not
   * read.
   */
  Hits lines(byte[] b, String block) {
    return new Hits(this, b, block, block.length());
  }

  /** Adds the needles of {@code [from, to)} to {@code hits}, by place, then needle index. */
  private void scan(byte[] b, String block, int from, int to, Hits hits) {
    int mark = hits.size;
    for (int k = 0; k < shortOnes.length; k++) {
      String n = shortTexts[k];
      String core = shortCores[k];
      int lead = shortLead[k];
      int last = to - shortTrail[k];
      if (from + lead > last) {
        continue;
      }
      for (int at = block.indexOf(core, from + lead, last);
          at >= 0;
          at = block.indexOf(core, at + 1, last)) {
        if (lead + shortTrail[k] == 0 || block.startsWith(n, at - lead)) {
          hits.add(at - lead, shortOnes[k]);
        }
      }
    }
    if (shortOnes.length < needles.length) {
      longOnes(b, from, to, hits);
    }
    if (hits.size - mark > 1) {
      Arrays.sort(hits.items, mark, hits.size);
    }
  }

  /**
   * The long needles of {@code [from, to)}: the four quarters of the range scanned side by side, so
   * that the processor overlaps their chains of dependent loads (each step reads a triple, then the
   * shift table, before it knows where to read next; one chain alone waits on those loads).
   */
  private void longOnes(byte[] b, int from, int to, Hits hits) {
    int m = shortest;
    int q = (to - from) / 4;
    int e0 = from + m - 1;
    int e1 = from + q + m - 1;
    int e2 = from + 2 * q + m - 1;
    int e3 = from + 3 * q + m - 1;
    int l0 = Math.min(e1, to);
    int l1 = Math.min(e2, to);
    int l2 = Math.min(e3, to);
    while (e0 < l0 && e1 < l1 && e2 < l2 && e3 < to) {
      int s0 = shift[tripleAt(b, e0)];
      int s1 = shift[tripleAt(b, e1)];
      int s2 = shift[tripleAt(b, e2)];
      int s3 = shift[tripleAt(b, e3)];
      if (s0 == 0 || s1 == 0 || s2 == 0 || s3 == 0) {
        if (s0 == 0) {
          candidates(b, e0 - m + 1, from, to, hits);
          s0 = 1;
        }
        if (s1 == 0) {
          candidates(b, e1 - m + 1, from, to, hits);
          s1 = 1;
        }
        if (s2 == 0) {
          candidates(b, e2 - m + 1, from, to, hits);
          s2 = 1;
        }
        if (s3 == 0) {
          candidates(b, e3 - m + 1, from, to, hits);
          s3 = 1;
        }
      }
      e0 += s0;
      e1 += s1;
      e2 += s2;
      e3 += s3;
    }
    rest(b, e0, l0, from, to, hits);
    rest(b, e1, l1, from, to, hits);
    rest(b, e2, l2, from, to, hits);
    rest(b, e3, to, from, to, hits);
  }

  /** One chain of {@link #longOnes} to its end: window ends from {@code end} below {@code last}. */
  private void rest(byte[] b, int end, int last, int from, int to, Hits hits) {
    for (; end < last; end++) {
      int s = shift[tripleAt(b, end)];
      if (s > 0) {
        end += s - 1;
      } else {
        candidates(b, end - shortest + 1, from, to, hits);
      }
    }
  }

  /**
   * The long needles within {@code [from, to)} whose keying bytes ({@link #keyAt}) start at {@code
   * key}, found by the first 8 of those.
   */
  private void candidates(byte[] b, int key, int from, int to, Hits hits) {
    long prefix = (long) LONG_BYTES.get(b, key);
    int mask = prefixes.length - 1;
    for (int slot = slot(prefix); byPrefix[slot] != null; slot = (slot + 1) & mask) {
      if (prefixes[slot] == prefix) {
        for (int i : byPrefix[slot]) {
          byte[] n = needles[i];
          int start = key - keyAt[i];
          if (start >= from
              && start + n.length <= to
              && Arrays.equals(b, start, start + n.length, n, 0, n.length)) {
            hits.add(start, i);
          }
        }
        return;
      }
    }
  }

  /**
   * The needles found, in order, read line after line: {@link #first} answers which needle a line
   * holds, moving a cursor past the places before it.
   */
  static final class Hits {
    /** How far past the line asked about one scan of {@link #lines} looks. */
    static final int WINDOW = 16 << 10;

    private final NeedleSet set;
    private final byte[] b;
    private final String block;
    private final int len;
    private long[] items = new long[16];
    private int size;
    private int cursor;
    private int at = -1;

    /** Everything before this is scanned (or was never asked about). */
    private int scanned;

    private Hits(NeedleSet set, byte[] b, String block, int len) {
      this.set = set;
      this.b = b;
      this.block = block;
      this.len = len;
      this.scanned = block == null ? len : 0;
    }

    private void add(int place, int needle) {
      if (size == items.length) {
        items = Arrays.copyOf(items, size * 2);
      }
      items[size++] = (long) place << 32 | needle;
    }

    int size() {
      return size;
    }

    int place(int i) {
      return (int) (items[i] >>> 32);
    }

    int needle(int i) {
      return (int) items[i];
    }

    /**
     * The lowest-indexed needle starting in the line {@code [start, end)}, or -1; {@link #at} is
     * then where it first starts there. Lines must be asked about in order.
     */
    int first(int start, int end) {
      return first(start, end, len);
    }

    /**
     * {@link #first(int, int)}, the scan looking ahead no further than {@code until}, where the
     * caller knows a line begins that will not ask (it holds the word NCCL); a line after that one
     * scans again when it asks. A block of NCCL's lines asks about one line in thousands (a
     * program's JSON line among a verbose log's), and each such line scanned a window of the NCCL
     * lines after it: a fifteenth of the parse threads' samples on bench/run.sh's nccl shape
     * (docs/performance.md, eleventh pass).
     */
    int first(int start, int end, int until) {
      if (scanned < end) {
        // from a line start to a line end, so no needle is cut (none holds a line break)
        int from = Math.max(scanned, start);
        int to = Math.min(len, Math.max(end, Math.min(start + WINDOW, until)));
        if (to < len) {
          int nl = block.indexOf('\n', to);
          to = nl < 0 ? len : nl;
        }
        set.scan(b, block, from, to, this);
        scanned = to;
      }
      while (cursor < size && place(cursor) < start) {
        cursor++;
      }
      int first = -1;
      at = -1;
      for (int i = cursor; i < size && place(i) < end; i++) {
        if (first < 0 || needle(i) < first) {
          first = needle(i);
          at = place(i);
        }
      }
      return first;
    }

    /** Where the needle {@link #first} returned first starts in the line. */
    int at() {
      return at;
    }
  }
}
