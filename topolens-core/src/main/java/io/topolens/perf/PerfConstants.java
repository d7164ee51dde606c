package io.topolens.perf;

import io.topolens.catalog.BundledJson;
import io.topolens.catalog.Source;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model's constants ({@code perf-model.json}): NCCL's tuning constants, path efficiencies, CPU
 * Adam rates and defaults, each with its sources.
 */
public final class PerfConstants {
  private static final PerfConstants BUNDLED = load();

  private final Map<String, Source> sources;
  private final Map<String, Parameter> parameters;

  private PerfConstants(Map<String, Source> sources, Map<String, Parameter> parameters) {
    this.sources = sources;
    this.parameters = parameters;
  }

  /**
   * One constant: a single {@code value} or a list of {@code values}, its unit, what it means and
   * the keys of its sources.
   */
  public record Parameter(
      String id,
      Double value,
      List<Double> values,
      String unit,
      String what,
      List<String> sources) {
    public Parameter {
      values = values == null ? List.of() : List.copyOf(values);
      sources = List.copyOf(sources);
    }
  }

  public static PerfConstants bundled() {
    return BUNDLED;
  }

  /** The constant with this id; a missing id is a programming error. */
  public Parameter parameter(String id) {
    Parameter p = parameters.get(id);
    if (p == null) {
      throw new IllegalArgumentException("no model parameter " + id);
    }
    return p;
  }

  /** The single value of a constant. */
  public double value(String id) {
    Parameter p = parameter(id);
    if (p.value() == null) {
      throw new IllegalArgumentException("model parameter " + id + " is a list");
    }
    return p.value();
  }

  /** Element {@code index} of a list constant. */
  public double value(String id, int index) {
    return parameter(id).values().get(index);
  }

  /** The list of a constant. */
  public List<Double> values(String id) {
    return parameter(id).values();
  }

  public Source source(String key) {
    Source s = sources.get(key);
    if (s == null) {
      throw new IllegalArgumentException("no source " + key);
    }
    return s;
  }

  public List<Parameter> all() {
    return List.copyOf(parameters.values());
  }

  public Map<String, Source> sources() {
    return Map.copyOf(sources);
  }

  /**
   * These constants with some single values replaced (a fit under test, or a leave-one-out fit),
   * each then citing {@code source}, which is added to the sources.
   */
  public PerfConstants with(Map<String, Double> values, Source source) {
    Map<String, Source> s = new LinkedHashMap<>(sources);
    s.put(source.key(), source);
    Map<String, Parameter> p = new LinkedHashMap<>(parameters);
    values.forEach(
        (id, v) -> {
          Parameter old = parameter(id);
          p.put(id, new Parameter(id, v, null, old.unit(), old.what(), List.of(source.key())));
        });
    return new PerfConstants(s, p);
  }

  private record File(
      String about, Map<String, Source.Entry> sources, List<Parameter> parameters) {}

  private static PerfConstants load() {
    File f = BundledJson.read(PerfConstants.class, "perf-model.json", File.class);
    Map<String, Source> sources = Source.all(f.sources());
    Map<String, Parameter> params = new LinkedHashMap<>();
    for (Parameter p : f.parameters()) {
      for (String key : p.sources()) {
        if (!sources.containsKey(key)) {
          throw new IllegalStateException(p.id() + " cites undefined source " + key);
        }
      }
      if (params.put(p.id(), p) != null) {
        throw new IllegalStateException("duplicate model parameter " + p.id());
      }
    }
    return new PerfConstants(sources, params);
  }
}
