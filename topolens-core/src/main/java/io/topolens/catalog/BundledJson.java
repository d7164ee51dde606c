package io.topolens.catalog;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * A JSON file bundled in the jar beside the class that reads it (the model's constants, presets,
 * lint rules, Kubernetes settings), bound to records strictly: a field the records do not name is
 * an error in the bundled file, not something to skip.
 */
public final class BundledJson {
  private BundledJson() {}

  public static <T> T read(Class<?> owner, String resource, Class<T> type) {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " missing from the jar");
      }
      return new ObjectMapper()
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
          .readValue(in, type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
