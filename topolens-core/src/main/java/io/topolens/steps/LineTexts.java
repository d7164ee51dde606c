package io.topolens.steps;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The line texts of step times, deflated in blocks of 32 KiB: a log's step lines are alike, so a
 * million of them take a few megabytes instead of a String each. A text is stored once and read
 * back by the reference {@link #put} returned (block, offset, length), only for the lines a report
 * cites.
 */
final class LineTexts {
  private static final int BLOCK = 32 * 1024;

  private final List<byte[]> blocks = new ArrayList<>();
  private byte[] current = new byte[BLOCK];
  private int used;
  private String last;
  private long lastRef = -1;
  private int cachedBlock = -1;
  private byte[] cached;

  /** Stores a text (at most {@link FileSteps#CLIP} characters) and returns its reference. */
  long put(String text) {
    if (text.equals(last)) {
      return lastRef;
    }
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    if (used + b.length > BLOCK) {
      flush();
    }
    System.arraycopy(b, 0, current, used, b.length);
    long ref = (long) blocks.size() << 32 | (long) used << 16 | b.length;
    used += b.length;
    last = text;
    lastRef = ref;
    return ref;
  }

  /** The text of a reference. */
  String get(long ref) {
    int block = (int) (ref >>> 32);
    int offset = (int) (ref >>> 16 & 0xFFFF);
    int length = (int) (ref & 0xFFFF);
    byte[] bytes = block == blocks.size() ? current : inflated(block);
    return new String(bytes, offset, length, StandardCharsets.UTF_8);
  }

  /**
   * Takes over another store's blocks (its references stay valid shifted by the returned number of
   * blocks).
   */
  long adopt(LineTexts other) {
    flush();
    other.flush();
    long shift = blocks.size();
    blocks.addAll(other.blocks);
    return shift << 32;
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
    last = null;
  }

  private byte[] inflated(int block) {
    if (block != cachedBlock) {
      Inflater in = new Inflater();
      in.setInput(blocks.get(block));
      byte[] out = new byte[BLOCK];
      try {
        int n = 0;
        while (!in.finished() && n < BLOCK) {
          n += in.inflate(out, n, BLOCK - n);
        }
      } catch (DataFormatException e) {
        throw new IllegalStateException("step line texts corrupted", e);
      } finally {
        in.end();
      }
      cached = out;
      cachedBlock = block;
    }
    return cached;
  }
}
