package io.topolens.nccl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every place where one of several needles starts in a block of bytes. The long needles ({@link
 * #LONG} bytes or more) are found in one pass: Wu and Manber's shift table over triples of bytes
 * (hashed to 16 bits). Where a triple ends no long needle's first {@code m} bytes ({@code m} the
 * shortest long needle's length), the pass moves on by up to {@code m - 2} bytes at once; where one
 * may end, the needles it may end are compared in place. Triples, not pairs: with some three
 * hundred needles of English words (NCCL's failure texts) nearly every common pair of letters ends
 * some needle's first bytes, which cut the skips; triples of them are far fewer. So three hundred
 * needles cost one pass that looks at about one byte in five, instead of one search per needle. The
 * few short ones are searched one by one.
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
  private final int shortest;

  /** How far the window's end may move on from a triple of bytes (0: a needle may end here). */
  private final byte[] shift = new byte[1 << 16];

  /** Per triple of bytes, the long needles whose first {@code shortest} bytes end with it. */
  private final int[][] ending = new int[1 << 16][];

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
    shortest = m == Integer.MAX_VALUE ? LONG : m;
    Arrays.fill(shift, (byte) Math.min(shortest - 2, Byte.MAX_VALUE));
    List<List<Integer>> ends = new ArrayList<>();
    for (int i = 0; i < 1 << 16; i++) {
      ends.add(null);
    }
    for (int i = 0; i < this.needles.length; i++) {
      byte[] n = this.needles[i];
      if (n.length < LONG) {
        continue;
      }
      for (int j = 2; j < shortest; j++) {
        int h = triple(n[j - 2], n[j - 1], n[j]);
        shift[h] = (byte) Math.min(shift[h], shortest - 1 - j);
      }
      int last = triple(n[shortest - 3], n[shortest - 2], n[shortest - 1]);
      if (ends.get(last) == null) {
        ends.set(last, new ArrayList<>());
      }
      ends.get(last).add(i);
    }
    for (int h = 0; h < 1 << 16; h++) {
      if (ends.get(h) != null) {
        ending[h] = ends.get(h).stream().mapToInt(Integer::intValue).toArray();
      }
    }
  }

  /** Three bytes hashed to 16 bits (collisions only shorten a skip or add a comparison). */
  private static int triple(byte a, byte b, byte c) {
    return ((a & 0xff) << 10 ^ (b & 0xff) << 5 ^ (c & 0xff)) & 0xffff;
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
      for (int at = block.indexOf(n, from, to); at >= 0; at = block.indexOf(n, at + 1, to)) {
        hits.add(at, shortOnes[k]);
      }
    }
    int m = shortest;
    int end = from + m - 1;
    while (end < to) {
      int h = triple(b[end - 2], b[end - 1], b[end]);
      int s = shift[h];
      if (s > 0) {
        end += s;
        continue;
      }
      int start = end - m + 1;
      for (int i : ending[h]) {
        if (startsWith(b, start, to, needles[i])) {
          hits.add(start, i);
        }
      }
      end++;
    }
    if (hits.size - mark > 1) {
      Arrays.sort(hits.items, mark, hits.size);
    }
  }

  private static boolean startsWith(byte[] b, int at, int to, byte[] n) {
    if (at + n.length > to) {
      return false;
    }
    return Arrays.equals(b, at, at + n.length, n, 0, n.length);
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
      if (scanned < end) {
        // from a line start to a line end, so no needle is cut (none holds a line break)
        int from = Math.max(scanned, start);
        int to = Math.min(len, Math.max(end, start + WINDOW));
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
