package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.model.Job;
import io.topolens.model.NodeFacts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A rule that judges what the cluster said of a job's pods and nodes ({@code diagnose --job}, an
 * experiment's Kubernetes variants): logs alone give it nothing to judge.
 */
interface ClusterRule extends Rule {

  @Override
  default List<Finding> check(Job job) {
    return List.of();
  }

  /** The nodes by a label they carry ({@code key} non-null), in the order first seen. */
  static Map<String, List<NodeFacts>> byLabel(
      List<NodeFacts> nodes, Function<NodeFacts, String> key) {
    Map<String, List<NodeFacts>> out = new LinkedHashMap<>();
    for (NodeFacts n : nodes) {
      String k = key.apply(n);
      if (k != null) {
        out.computeIfAbsent(k, x -> new java.util.ArrayList<>()).add(n);
      }
    }
    return out;
  }

  /** {@code 2 x p4d.24xlarge, 1 x p5.48xlarge}: each group's size, {@code joiner}, its label. */
  static List<String> counts(Map<String, List<NodeFacts>> groups, String joiner) {
    return groups.entrySet().stream().map(e -> e.getValue().size() + joiner + e.getKey()).toList();
  }

  /** The first node of each group, as evidence. */
  static List<io.topolens.model.Evidence> firstOfEach(Map<String, List<NodeFacts>> groups) {
    return groups.values().stream()
        .limit(Finding.MAX_EVIDENCE)
        .map(g -> g.get(0).evidence())
        .toList();
  }
}
