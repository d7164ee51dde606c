package io.topolens.lab.probe;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The probe program shipped in the jar: its text, and a copy of it written where a launcher needs
 * it.
 */
public final class ProbeScript {

  /** The file name the probe is written under. */
  public static final String FILE_NAME = "probe.py";

  private static final String RESOURCE = "/io/topolens/lab/probe/" + FILE_NAME;

  private ProbeScript() {}

  /** The program's text. */
  public static String text() {
    try (InputStream in = ProbeScript.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  /**
   * Writes the program as {@code dir/probe.py}, creating {@code dir} when missing.
   *
   * @return the file written
   */
  public static Path writeTo(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(FILE_NAME);
    Files.writeString(file, text(), StandardCharsets.UTF_8);
    return file;
  }
}
