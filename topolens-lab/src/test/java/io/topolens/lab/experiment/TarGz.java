package io.topolens.lab.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Unpacks the .tar.gz archives bench/results keeps (ustar: plain files and folders). */
final class TarGz {
  private TarGz() {}

  static void extract(Path archive, Path into) throws IOException {
    try (InputStream in = new GZIPInputStream(Files.newInputStream(archive))) {
      byte[] header = new byte[512];
      while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
        String name = field(header, 0, 100);
        String prefix = field(header, 345, 155);
        if (!prefix.isEmpty()) {
          name = prefix + "/" + name;
        }
        long size = Long.parseLong(field(header, 124, 12).strip(), 8);
        char type = (char) header[156];
        Path target = into.resolve(name).normalize();
        if (!target.startsWith(into)) {
          throw new IOException(archive + ": " + name + " leaves the folder");
        }
        if (type == '5') {
          Files.createDirectories(target);
        } else if (type == '0' || type == 0) {
          Files.createDirectories(target.getParent());
          Files.write(target, in.readNBytes((int) size));
          in.skipNBytes((512 - size % 512) % 512);
          continue;
        }
        // other entries (pax headers, links): skip their data
        in.skipNBytes((size + 511) / 512 * 512);
      }
    }
  }

  private static String field(byte[] h, int from, int length) {
    int end = from;
    while (end < from + length && h[end] != 0) {
      end++;
    }
    return new String(h, from, end - from, StandardCharsets.UTF_8);
  }
}
