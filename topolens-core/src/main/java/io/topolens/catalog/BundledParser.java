package io.topolens.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Jackson's streaming parser ({@code jackson-core}, its default settings and limits) over a JSON
 * file bundled in the jar, and the one factory that makes the parsers of JSON texts read token by
 * token ({@link BundledList}, {@link BundledJson}, the step-time reader's JSON lines, nccl-tests'
 * JSON output). No databind {@code ObjectMapper}: one takes a tenth of a second to start, a third
 * of a small diagnose (docs/performance.md). A bundled file that is not JSON, or breaks the shape
 * its reader expects, is an error naming the file and the line.
 */
public final class BundledParser {
  private BundledParser() {}

  /** The factory of every parser read token by token: thread-safe, its symbol tables shared. */
  public static final JsonFactory FACTORY = JsonFactory.builder().build();

  /** What reads a bundled file's tokens; it may throw Jackson's I/O and parse exceptions. */
  interface Reading<T> {
    T read(JsonParser p) throws IOException;
  }

  /**
   * The value {@code reading} makes of the bundled {@code resource} beside {@code owner}; JSON that
   * is not is an {@link IllegalStateException} saying {@code resource:line: not JSON: ...}.
   */
  static <T> T read(Class<?> owner, String resource, Reading<T> reading) {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " missing from the jar");
      }
      try (JsonParser p = FACTORY.createParser(in)) {
        return reading.read(p);
      } catch (JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        throw new IllegalStateException(
            resource
                + ":"
                + (at == null ? "?" : at.getLineNr())
                + ": not JSON: "
                + e.getOriginalMessage(),
            e);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The line {@code p} has read to (1 for the first). */
  static int line(JsonParser p) {
    return p.currentLocation().getLineNr();
  }
}
