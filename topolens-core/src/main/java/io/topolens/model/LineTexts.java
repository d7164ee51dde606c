package io.topolens.model;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Line texts held in blocks of 32 KiB, deflated: a log's step lines are alike, and so are the lines
 * every rank of a big job prints about itself (its net plugin, interfaces, GPUDirect, communicator
 * and connections), so a million of them take a few megabytes instead of a String each (the
 * reader's {@link Evidence} of a 68,000-rank job: docs/performance.md). Within a block a text of
 * the same length as one of the {@link #RECENT} texts stored before it is kept as the runs of bytes
 * where it differs from that one (a step line differs from the previous line of its kind in its
 * numbers only), so deflating has about a quarter of the bytes to read: deflating was half of the
 * applying thread's time on a log of millions of steps. A text is stored once and read back by the
 * reference {@link #put} returned (block, entry), only for the lines a report cites.
 *
 * <p>Thread-safety: one thread puts; any threads read ({@link #get} is synchronized and keeps the
 * last few blocks it inflated, so two threads reading in file order do not inflate each other's
 * blocks again); {@link #adopt} takes each store's lock in turn.
 */
public final class LineTexts {
  private static final int BLOCK = 32 * 1024;

  /** How many texts before a new one are tried as the one it differs from. */
  static final int RECENT = 4;

  /**
   * An entry's first byte: 0 to {@code RECENT - 1} a difference from that text back, else whole.
   */
  private static final byte WHOLE = (byte) RECENT;

  private final List<byte[]> blocks = new ArrayList<>();
  private byte[] current = new byte[BLOCK];
  private int used;
  private int entries;
  private final byte[][] recent = new byte[RECENT][];
  private byte[] scratch = new byte[BLOCK];
  private String last;
  private long lastRef = -1;

  /** Blocks inflated lately, newest first: readers in file order find theirs here. */
  private static final int CACHED = 4;

  private final int[] cachedBlocks = {-1, -1, -1, -1};
  private final Decoded[] cached = new Decoded[CACHED];

  /** Stores a text and returns its reference. */
  public synchronized long put(String text) {
    if (text.equals(last)) {
      return lastRef;
    }
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    int n = encode(b);
    if (used + n > current.length) {
      flush();
      n = encode(b);
      if (n > current.length) {
        current = new byte[n]; // a text longer than a block: a block of its own
      }
    }
    System.arraycopy(scratch, 0, current, used, n);
    used += n;
    System.arraycopy(recent, 0, recent, 1, RECENT - 1);
    recent[0] = b;
    long ref = (long) blocks.size() << 32 | entries++;
    last = text;
    lastRef = ref;
    return ref;
  }

  /**
   * Writes the entry of {@code b} into {@link #scratch}: the runs where it differs from the most
   * recent text of its length, or the whole text when none has its length or that is not shorter.
   */
  private int encode(byte[] b) {
    if (scratch.length < b.length + 8) {
      scratch = new byte[b.length + 8];
    }
    for (int k = 0; k < RECENT && recent[k] != null; k++) {
      byte[] r = recent[k];
      if (r.length == b.length) {
        int n = difference(b, r, k);
        if (n > 0 && n < b.length) {
          return n;
        }
        break;
      }
    }
    scratch[0] = WHOLE;
    int n = varint(scratch, 1, b.length);
    System.arraycopy(b, 0, scratch, n, b.length);
    return n + b.length;
  }

  /**
   * {@code b}'s runs of bytes that differ from {@code r} (same length): the entry's first byte
   * {@code k}, then each run as (gap since the previous run's end, length, bytes), ended by a gap
   * of 0 and a length of 0; -1 when it would not be shorter than {@code b}.
   */
  private int difference(byte[] b, byte[] r, int k) {
    int len = b.length;
    scratch[0] = (byte) k;
    int n = 1;
    int i = 0;
    while (i < len) {
      int m = Arrays.mismatch(b, i, len, r, i, len);
      if (m < 0) {
        break;
      }
      int start = i + m;
      int end = start + 1;
      while (end < len && b[end] != r[end]) {
        end++;
      }
      if (n + 6 + (end - start) >= len) {
        return -1;
      }
      n = varint(scratch, n, start - i);
      n = varint(scratch, n, end - start);
      System.arraycopy(b, start, scratch, n, end - start);
      n += end - start;
      i = end;
    }
    scratch[n++] = 0;
    scratch[n++] = 0;
    return n;
  }

  private static int varint(byte[] out, int at, int v) {
    while (v >= 0x80) {
      out[at++] = (byte) (v | 0x80);
      v >>>= 7;
    }
    out[at++] = (byte) v;
    return at;
  }

  /**
   * A line's evidence whose text is kept here (the text is read back when it is asked for); a null
   * text is kept as it is.
   */
  public Evidence evidence(String file, long line, String text) {
    if (text == null) {
      return new Evidence(file, line, null);
    }
    long ref = put(text);
    long block = ref >>> 32;
    int entry = (int) ref;
    if (block >= 1 << (32 - ENTRY_BITS) || entry >= 1 << ENTRY_BITS) {
      return new Evidence(file, line, text); // past what an int holds: the text as it is
    }
    return new Evidence(file, line, this, (int) (block << ENTRY_BITS | entry));
  }

  /**
   * The bits of a packed reference ({@link #evidence}) that number a block's entry: an entry takes
   * at least two bytes (its kind and its length), so a block holds at most 2^14.
   */
  private static final int ENTRY_BITS = 14;

  /** The reference {@link #get} takes of one {@link #evidence} packed. */
  static long unpacked(int packed) {
    return (long) (packed >>> ENTRY_BITS) << 32 | (packed & ((1 << ENTRY_BITS) - 1));
  }

  /** The text of a reference. */
  public synchronized String get(long ref) {
    int block = (int) (ref >>> 32);
    int entry = (int) ref;
    if (block == blocks.size()) {
      return new Decoded(current, used).text(entry);
    }
    int k = 0;
    while (k < CACHED && cachedBlocks[k] != block) {
      k++;
    }
    Decoded d;
    if (k < CACHED) {
      d = cached[k];
    } else {
      byte[] bytes = inflated(block);
      d = new Decoded(bytes, bytes.length);
      k = CACHED - 1;
    }
    // move to the front
    System.arraycopy(cachedBlocks, 0, cachedBlocks, 1, k);
    System.arraycopy(cached, 0, cached, 1, k);
    cachedBlocks[0] = block;
    cached[0] = d;
    return d.text(entry);
  }

  /**
   * Deflates the block being filled: a store read from now on reads only deflated blocks (the one
   * being filled is decoded from its start at every read).
   */
  public synchronized void seal() {
    flush();
  }

  /**
   * Takes over another store's blocks (its references stay valid shifted by the returned number of
   * blocks). The other store is sealed and its blocks taken under its own lock, then added under
   * this one's: one lock at a time, so two stores adopting each other cannot deadlock.
   */
  public long adopt(LineTexts other) {
    if (other == this) {
      throw new IllegalArgumentException("a store cannot adopt itself");
    }
    List<byte[]> taken;
    synchronized (other) {
      other.flush();
      taken = List.copyOf(other.blocks);
    }
    synchronized (this) {
      flush();
      long shift = blocks.size();
      blocks.addAll(taken);
      return shift << 32;
    }
  }

  private void flush() {
    if (used == 0) {
      return;
    }
    Deflater d = new Deflater(Deflater.BEST_SPEED);
    d.setInput(current, 0, used);
    d.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream(used / 4);
    byte[] buf = new byte[BLOCK];
    while (!d.finished()) {
      out.write(buf, 0, d.deflate(buf));
    }
    d.end();
    blocks.add(out.toByteArray());
    current = new byte[BLOCK];
    used = 0;
    entries = 0;
    Arrays.fill(recent, null);
    last = null;
  }

  private byte[] inflated(int block) {
    Inflater in = new Inflater();
    in.setInput(blocks.get(block));
    ByteArrayOutputStream out = new ByteArrayOutputStream(BLOCK);
    byte[] buf = new byte[BLOCK];
    try {
      while (!in.finished()) {
        int n = in.inflate(buf);
        if (n == 0 && (in.needsInput() || in.needsDictionary())) {
          throw new IllegalStateException("line texts corrupted: block " + block + " cut");
        }
        out.write(buf, 0, n);
      }
    } catch (DataFormatException e) {
      throw new IllegalStateException("line texts corrupted", e);
    } finally {
      in.end();
    }
    return out.toByteArray();
  }

  /** A block's entries read back, one text after another, until the one asked for. */
  private static final class Decoded {
    private final byte[] bytes;
    private final int length;
    private final List<byte[]> texts = new ArrayList<>();
    private int at;

    Decoded(byte[] bytes, int length) {
      this.bytes = bytes;
      this.length = length;
    }

    String text(int entry) {
      while (texts.size() <= entry) {
        if (at >= length) {
          throw new IllegalStateException("line texts corrupted: no entry " + entry);
        }
        texts.add(next());
      }
      return new String(texts.get(entry), StandardCharsets.UTF_8);
    }

    private byte[] next() {
      int kind = bytes[at++];
      if (kind == WHOLE) {
        int len = varint();
        byte[] b = Arrays.copyOfRange(bytes, at, at + len);
        at += len;
        return b;
      }
      byte[] b = texts.get(texts.size() - 1 - kind).clone();
      int i = 0;
      while (true) {
        int gap = varint();
        int len = varint();
        if (gap == 0 && len == 0) {
          return b;
        }
        i += gap;
        System.arraycopy(bytes, at, b, i, len);
        at += len;
        i += len;
      }
    }

    private int varint() {
      int v = 0;
      for (int shift = 0; ; shift += 7) {
        byte b = bytes[at++];
        v |= (b & 0x7f) << shift;
        if (b >= 0) {
          return v;
        }
      }
    }
  }
}
