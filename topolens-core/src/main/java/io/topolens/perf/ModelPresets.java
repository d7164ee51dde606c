package io.topolens.perf;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.catalog.Source;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
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

  private record SourceEntry(String title, String url) {}

  private record File(String about, Map<String, SourceEntry> sources, List<ModelSpec> models) {}

  private static ModelPresets load() {
    try (InputStream in = ModelPresets.class.getResourceAsStream("models.json")) {
      if (in == null) {
        throw new IllegalStateException("models.json missing from the jar");
      }
      File f =
          new ObjectMapper()
              .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
              .readValue(in, File.class);
      Map<String, Source> sources = new LinkedHashMap<>();
      f.sources().forEach((k, v) -> sources.put(k, new Source(k, v.title(), v.url())));
      for (ModelSpec m : f.models()) {
        for (String key : m.sources()) {
          if (!sources.containsKey(key)) {
            throw new IllegalStateException(m.name() + " cites undefined source " + key);
          }
        }
      }
      return new ModelPresets(sources, List.copyOf(f.models()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
