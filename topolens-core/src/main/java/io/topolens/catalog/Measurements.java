package io.topolens.catalog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

  private static Measurements load() {
    Map<String, Measurement> map = new LinkedHashMap<>();
    for (Map<String, String> m :
        BundledList.read(
            Measurements.class,
            "measurements.json",
            "measurements",
            Set.of("id", "value", "unit", "what", "source"))) {
      map.put(
          m.get("id"),
          new Measurement(
              m.get("id"),
              Double.parseDouble(m.get("value")),
              m.get("unit"),
              m.get("what"),
              m.get("source")));
    }
    return new Measurements(map);
  }
}
