package io.topolens.kube.model;

import io.topolens.model.Evidence;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A container's resource requests and limits. Values that are not quantities (an unsubstituted
 * {@code ${GPU_PER_NODE}}) are kept as {@link Located} with a null value.
 */
public record Resources(
    Map<String, Located<Quantity>> requests,
    Map<String, Located<Quantity>> limits,
    Evidence evidence) {

  public static final String GPU = "nvidia.com/gpu";
  public static final String EFA = "vpc.amazonaws.com/efa";
  public static final String HUGEPAGES_2MI = "hugepages-2Mi";
  public static final String MEMORY = "memory";
  public static final String CPU = "cpu";

  public Resources {
    requests = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(requests));
    limits = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(limits));
  }

  public static Resources none() {
    return new Resources(Map.of(), Map.of(), null);
  }

  public boolean isEmpty() {
    return requests.isEmpty() && limits.isEmpty();
  }

  /**
   * The amount of {@code name} the container gets: its limit, else its request (extended resources
   * and hugepages must set both equal; Kubernetes copies a lone limit into the request).
   */
  public Optional<Located<Quantity>> get(String name) {
    Located<Quantity> l = limits.get(name);
    return Optional.ofNullable(l != null ? l : requests.get(name));
  }

  /** Whether the resource is named at all (even with an unknown value). */
  public boolean names(String name) {
    return limits.containsKey(name) || requests.containsKey(name);
  }

  /** The whole-number count of {@code name}, or empty when absent or unknown. */
  public Optional<Long> count(String name) {
    return get(name).map(Located::value).filter(q -> q != null).map(Quantity::asLong);
  }

  /** These resources with {@code over}'s keys replacing or adding to them (Trainer v2.3 merge). */
  public Resources mergedWith(Resources over) {
    Map<String, Located<Quantity>> r = new LinkedHashMap<>(requests);
    r.putAll(over.requests);
    Map<String, Located<Quantity>> l = new LinkedHashMap<>(limits);
    l.putAll(over.limits);
    return new Resources(r, l, over.evidence != null ? over.evidence : evidence);
  }
}
