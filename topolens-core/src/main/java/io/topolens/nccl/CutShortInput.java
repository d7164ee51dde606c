package io.topolens.nccl;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A stream that ends where its source breaks off inside its data (a {@code .gz} cut short: a copy
 * interrupted, a log compressed while still written), remembering the break, so that the lines
 * before it are read and kept rather than lost with the file.
 */
final class CutShortInput extends FilterInputStream {
  private EOFException cut;

  CutShortInput(InputStream in) {
    super(in);
  }

  /** Where the source broke off, or null when it ended as it should. */
  EOFException cut() {
    return cut;
  }

  @Override
  public int read() throws IOException {
    if (cut != null) {
      return -1;
    }
    try {
      return super.read();
    } catch (EOFException e) {
      cut = e;
      return -1;
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (cut != null) {
      return -1;
    }
    try {
      return super.read(b, off, len);
    } catch (EOFException e) {
      cut = e;
      return -1;
    }
  }
}
