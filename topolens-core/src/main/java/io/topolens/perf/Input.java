package io.topolens.perf;

/**
 * A number a prediction rests on, and where it comes from.
 *
 * @param name what it is, e.g. {@code GPU peak (BF16 dense)}
 * @param value with its unit
 * @param sources keys of the sources (catalog, perf-model.json, models.json), calibration files, or
 *     {@code given} for a number the user gave
 */
public record Input(String name, String value, java.util.List<String> sources) {
  public Input {
    sources = java.util.List.copyOf(sources);
  }
}
