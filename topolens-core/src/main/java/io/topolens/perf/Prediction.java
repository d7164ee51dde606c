package io.topolens.perf;

import java.util.List;

/**
 * What the step model predicts for one scenario.
 *
 * @param stepS seconds per optimizer step
 * @param jobS seconds for the whole job (steps x step + startup)
 * @param terms the step time broken down; they add up to {@code stepS}
 * @param collectives every collective with its total and exposed time
 * @param group the communicator as NCCL sees it, with the links used
 * @param bottleneck one sentence: what bounds the step
 * @param explanations why, in a few sentences
 * @param inputs the numbers used and their sources
 * @param assumptions what the model assumes that the configuration does not say
 * @param warnings configurations that may not fit (host memory)
 * @param sources every source the inputs cite, resolved
 */
public record Prediction(
    Scenario scenario,
    double stepS,
    double jobS,
    List<Term> terms,
    List<CollectiveUse> collectives,
    CommGroup group,
    String bottleneck,
    List<String> explanations,
    List<Input> inputs,
    List<String> assumptions,
    List<String> warnings,
    List<io.topolens.catalog.Source> sources) {

  public Prediction {
    terms = List.copyOf(terms);
    collectives = List.copyOf(collectives);
    explanations = List.copyOf(explanations);
    inputs = List.copyOf(inputs);
    assumptions = List.copyOf(assumptions);
    warnings = List.copyOf(warnings);
    sources = List.copyOf(sources);
  }

  /**
   * This prediction with {@code lines} (what was fitted, and to what) first among its assumptions.
   */
  public Prediction withFitted(List<String> lines) {
    return withFirst(lines.stream().map(l -> "fitted: " + l).toList());
  }

  /** The same prediction with the defaults a configuration left to the model listed first. */
  public Prediction withDefaults(List<String> defaulted) {
    if (defaulted.isEmpty()) {
      return this;
    }
    return withFirst(List.of("defaults used: " + String.join(", ", defaulted)));
  }

  private Prediction withFirst(List<String> first) {
    List<String> a = new java.util.ArrayList<>(first);
    a.addAll(assumptions);
    return new Prediction(
        scenario,
        stepS,
        jobS,
        terms,
        collectives,
        group,
        bottleneck,
        explanations,
        inputs,
        a,
        warnings,
        sources);
  }

  /** Seconds per step spent on terms of one kind. */
  public double seconds(Term.Kind kind) {
    return terms.stream().filter(t -> t.kind() == kind).mapToDouble(Term::seconds).sum();
  }

  /** Seconds per step of all collectives, overlapped or not. */
  public double communicationSeconds() {
    return collectives.stream().mapToDouble(CollectiveUse::seconds).sum();
  }

  /** Bytes each GPU moves per step in bus terms, GB. */
  public double communicationGB() {
    return collectives.stream().mapToDouble(CollectiveUse::busGB).sum();
  }
}
