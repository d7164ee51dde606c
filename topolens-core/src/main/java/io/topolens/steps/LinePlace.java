package io.topolens.steps;

import io.topolens.nccl.NcclLines;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * A step line kept by its place in a file that can be read again, instead of its text: only the
 * lines a report cites are read, once, at the end. The line's bytes are checked when read again (a
 * CRC-32C and the length of those read the first time), so a file changed in between (rewritten,
 * truncated and written again by copytruncate log rotation) gives no wrong line: such a line is
 * said to be gone.
 */
final class LinePlace {
  private LinePlace() {}

  /** The longest line read again: the NCCL reader skips longer ones unread. */
  private static final int LONGEST = 1 << 16;

  /** The check of a line's bytes {@code b[from, to)} (without its line end). */
  static long check(byte[] b, int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(b, from, to - from);
    return crc.getValue() << 32 | (to - from);
  }

  /**
   * The text of the line at {@code place} of {@code file} as it was read ({@link NcclLines#text}),
   * clipped as evidence is; when the bytes there are not those checked, or cannot be read, a
   * sentence that says so.
   */
  static String read(Path file, long place, long check) {
    int length = (int) check;
    if (length < 0 || length > LONGEST) {
      return GONE;
    }
    byte[] b = new byte[length + 1];
    int n = 0;
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buf = ByteBuffer.wrap(b);
      while (buf.hasRemaining()) {
        int r = c.read(buf, place + buf.position());
        if (r < 0) {
          break;
        }
      }
      n = buf.position();
    } catch (IOException | RuntimeException e) {
      return GONE;
    }
    // the line, then its line end or the file's end
    boolean whole = n == length || (n == length + 1 && b[length] == '\n');
    if (!whole || check(b, 0, length) != check) {
      return GONE;
    }
    return FileSteps.clip(NcclLines.text(b, 0, length));
  }

  /** What a line's evidence says when it is not found again. */
  static final String GONE =
      "(the line is no longer at its place: the file changed after it was read)";
}
