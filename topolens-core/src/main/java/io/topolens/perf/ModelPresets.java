package io.topolens.perf;

import io.topolens.catalog.BundledJson;
import io.topolens.catalog.Source;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The model presets bundled with topolens ({@code models.json}), with their sources. */
public final class ModelPresets {
  private static final ModelPresets BUNDLED = load();

  private final Map<String, Source> sources;
  private final List<ModelSpec> models;

  private ModelPresets(Map<String, Source> sources, List<ModelSpec> models) {
    this.sources = sources;
    this.models = models;
  }

  public static ModelPresets bundled() {
    return BUNDLED;
  }

  /** The preset named {@code name} or one of its aliases, case-insensitively. */
  public Optional<ModelSpec> find(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    return models.stream()
        .filter(
            m ->
                m.name().equals(n)
                    || m.aliases().stream().anyMatch(a -> a.toLowerCase(Locale.ROOT).equals(n)))
        .findFirst();
  }

  public List<ModelSpec> all() {
    return models;
  }

  /** Names of the presets, for messages. */
  public List<String> names() {
    return models.stream().map(ModelSpec::name).toList();
  }

  public Source source(String key) {
    Source s = sources.get(key);
    if (s == null) {
      throw new IllegalArgumentException("no source " + key);
    }
    return s;
  }

  private record File(String about, Map<String, Source.Entry> sources, List<ModelSpec> models) {}

  private static ModelPresets load() {
    File f = BundledJson.read(ModelPresets.class, "models.json", File.class);
    Map<String, Source> sources = Source.all(f.sources());
    for (ModelSpec m : f.models()) {
      for (String key : m.sources()) {
        if (!sources.containsKey(key)) {
          throw new IllegalStateException(m.name() + " cites undefined source " + key);
        }
      }
    }
    return new ModelPresets(sources, List.copyOf(f.models()));
  }
}
