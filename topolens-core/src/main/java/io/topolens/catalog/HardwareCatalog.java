package io.topolens.catalog;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.topolens.inputs.JsonMessages;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * GPUs, instance types and paths with the sources of every number ({@code hardware.json}), plus
 * whatever a user's {@code --catalog FILE} adds or replaces.
 */
public final class HardwareCatalog {
  /**
   * The built-in catalog before it is read: {@code hardware.json} is read (with Jackson, a third of
   * a small diagnose's start-up) only when an entry is first asked for, so commands that never
   * consult the catalog do not pay for it.
   */
  private static final HardwareCatalog BUILT_IN = new HardwareCatalog(null, null, null, null);

  /** Read on first use (the holder idiom: the JVM initialises it once, thread-safely). */
  private static final class Read {
    static final HardwareCatalog BUILT_IN = loadBuiltIn();
  }

  /** A user's catalog file is read with databind (its messages say what is wrong in the file). */
  private static final class UserFiles {
    static final ObjectMapper JSON =
        new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
  }

  /** Null in {@link #BUILT_IN} until it is read; see {@link #entries()}. */
  private final Map<String, Source> sources;

  private final Map<String, GpuSpec> gpus;
  private final Map<String, InstanceSpec> instances;
  private final Map<String, PathSpec> paths;

  private HardwareCatalog(
      Map<String, Source> sources,
      Map<String, GpuSpec> gpus,
      Map<String, InstanceSpec> instances,
      Map<String, PathSpec> paths) {
    this.sources = sources;
    this.gpus = gpus;
    this.instances = instances;
    this.paths = paths;
  }

  /** This catalog's entries: itself, or the built-in catalog read now if it was not yet. */
  private HardwareCatalog entries() {
    return gpus == null ? Read.BUILT_IN : this;
  }

  /** The catalog bundled with topolens. */
  public static HardwareCatalog builtIn() {
    return BUILT_IN;
  }

  /** The built-in catalog with the entries of these files added or replaced, in order. */
  public static HardwareCatalog load(List<Path> overrides) throws InputProblem {
    HardwareCatalog c = BUILT_IN;
    for (Path p : overrides) {
      c = c.with(p);
    }
    return c;
  }

  /** This catalog with the entries of {@code file} added; an entry with a known id replaces it. */
  public HardwareCatalog with(Path file) throws InputProblem {
    CatalogFile f;
    try (InputStream in = Files.newInputStream(file)) {
      f = UserFiles.JSON.readValue(in, CatalogFile.class);
    } catch (NoSuchFileException e) {
      throw new InputProblem(file + ": no such file");
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : ":" + at.getLineNr();
      throw new InputProblem(file + where + ": not a topolens catalog: " + JsonMessages.plain(e));
    } catch (IOException e) {
      throw new InputProblem(file + ": cannot read: " + e.getMessage());
    }
    HardwareCatalog c = entries();
    HardwareCatalog merged =
        new HardwareCatalog(
            new LinkedHashMap<>(c.sources),
            new LinkedHashMap<>(c.gpus),
            new LinkedHashMap<>(c.instances),
            new LinkedHashMap<>(c.paths));
    merged.add(f, file.toString());
    return merged;
  }

  private void add(CatalogFile f, String origin) throws InputProblem {
    if (f == null) {
      throw new InputProblem(origin + ": empty catalog file");
    }
    if (f.sources() != null) {
      f.sources().forEach((k, v) -> sources.put(k, new Source(k, v.title(), v.url())));
    }
    for (GpuSpec g : nonNull(f.gpus())) {
      require(
          g.id() != null && g.name() != null && g.match() != null,
          origin,
          "a gpu without id, name or match");
      gpus.put(g.id(), g);
    }
    for (InstanceSpec i : nonNull(f.instances())) {
      require(i.type() != null && i.gpu() != null, origin, "an instance without type or gpu");
      instances.put(i.type().toLowerCase(Locale.ROOT), i);
    }
    for (PathSpec p : nonNull(f.paths())) {
      require(p.id() != null && p.rate() != null, origin, "a path without id or rate");
      paths.put(p.id(), p);
    }
    for (InstanceSpec i : instances.values()) {
      require(
          gpus.containsKey(i.gpu()),
          origin,
          "instance " + i.type() + " names unknown gpu " + i.gpu());
    }
    List<String> cited = new ArrayList<>();
    gpus.values().forEach(g -> cited.addAll(g.sources()));
    instances.values().forEach(i -> cited.addAll(i.sources()));
    paths.values().forEach(p -> cited.addAll(p.sources()));
    for (String key : cited) {
      require(
          sources.containsKey(key),
          origin,
          "cites source " + key + " that 'sources' does not define");
    }
  }

  private static void require(boolean ok, String origin, String problem) throws InputProblem {
    if (!ok) {
      throw new InputProblem(origin + ": " + problem);
    }
  }

  private static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }

  /** The GPU whose name fragment matches {@code name} best (longest whole-word match). */
  public Optional<GpuSpec> gpuByName(String name) {
    if (name == null) {
      return Optional.empty();
    }
    GpuSpec best = null;
    int bestLen = 0;
    for (GpuSpec g : entries().gpus.values()) {
      int len = g.matchLength(name);
      if (len > bestLen) {
        best = g;
        bestLen = len;
      }
    }
    return Optional.ofNullable(best);
  }

  public Optional<GpuSpec> gpu(String id) {
    return Optional.ofNullable(entries().gpus.get(id));
  }

  public Optional<InstanceSpec> instance(String type) {
    return type == null
        ? Optional.empty()
        : Optional.ofNullable(entries().instances.get(type.toLowerCase(Locale.ROOT)));
  }

  /** The GPU of an instance type (the catalog guarantees it exists). */
  public GpuSpec gpuOf(InstanceSpec instance) {
    return entries().gpus.get(instance.gpu());
  }

  public Optional<PathSpec> path(String id) {
    return Optional.ofNullable(entries().paths.get(id));
  }

  public Source source(String key) {
    Source s = entries().sources.get(key);
    if (s == null) {
      throw new IllegalArgumentException("no source " + key);
    }
    return s;
  }

  /** The sources behind these keys, for a line of output. */
  public List<Source> sources(Collection<String> keys) {
    return keys.stream().map(this::source).toList();
  }

  public Collection<GpuSpec> gpus() {
    return List.copyOf(entries().gpus.values());
  }

  public Collection<InstanceSpec> instances() {
    return List.copyOf(entries().instances.values());
  }

  public Collection<PathSpec> paths() {
    return List.copyOf(entries().paths.values());
  }

  private record CatalogFile(
      String about,
      Map<String, Source.Entry> sources,
      List<GpuSpec> gpus,
      List<InstanceSpec> instances,
      List<PathSpec> paths) {}

  /**
   * The bundled catalog, bound without databind ({@link BundledJson}): a user's {@code --catalog}
   * file is still read by databind, whose messages name what is wrong in it.
   */
  private static HardwareCatalog loadBuiltIn() {
    try {
      HardwareCatalog c =
          new HardwareCatalog(
              new LinkedHashMap<>(),
              new LinkedHashMap<>(),
              new LinkedHashMap<>(),
              new LinkedHashMap<>());
      c.add(
          BundledJson.read(HardwareCatalog.class, "hardware.json", CatalogFile.class),
          "hardware.json");
      return c;
    } catch (InputProblem e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }
}
