package io.topolens.catalog;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The measured numbers bundled with topolens ({@code measurements.json}), by id. */
public final class Measurements {
  private static final Measurements BUNDLED = load();

  private final Map<String, Measurement> byId;

  private Measurements(Map<String, Measurement> byId) {
    this.byId = byId;
  }

  public static Measurements bundled() {
    return BUNDLED;
  }

  /** The measurement with this id; a missing id is a programming error. */
  public Measurement get(String id) {
    Measurement m = byId.get(id);
    if (m == null) {
      throw new IllegalArgumentException("no measurement " + id);
    }
    return m;
  }

  public List<Measurement> all() {
    return List.copyOf(byId.values());
  }

  private record File(String about, List<Measurement> measurements) {}

  private static Measurements load() {
    try (InputStream in = Measurements.class.getResourceAsStream("measurements.json")) {
      if (in == null) {
        throw new IllegalStateException("measurements.json missing from the jar");
      }
      File f =
          new ObjectMapper()
              .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
              .readValue(in, File.class);
      Map<String, Measurement> map = new LinkedHashMap<>();
      for (Measurement m : f.measurements()) {
        map.put(m.id(), m);
      }
      return new Measurements(map);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
