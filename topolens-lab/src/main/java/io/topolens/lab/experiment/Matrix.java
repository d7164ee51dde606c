package io.topolens.lab.experiment;

import io.topolens.perf.Layout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The lists an experiment varies; their cross product is run, as {@code compare} expands its
 * options. Order: layout, nodes, network, env, offload, then repeats innermost.
 *
 * @param networks empty list entries are not allowed; a list of one null means "not named"
 * @param offloads likewise
 */
public record Matrix(
    List<Layout> layouts,
    List<Integer> nodes,
    List<String> networks,
    List<Map<String, String>> envs,
    List<String> offloads,
    int repeats) {

  public Matrix {
    layouts = List.copyOf(layouts);
    nodes = List.copyOf(nodes);
    networks = new ArrayList<>(networks);
    envs = List.copyOf(envs);
    offloads = new ArrayList<>(offloads);
  }

  /** Every variant of this matrix alone, named by the values that differ between them. */
  public List<Variant> variants() {
    return variants(List.of(this));
  }

  /**
   * Every variant of several matrices (a spec's {@code variants:} may be a list of them), in order,
   * each named by the values that differ across all of them.
   */
  public static List<Variant> variants(List<Matrix> matrices) {
    Set<Layout> layouts = new HashSet<>();
    Set<Integer> nodes = new HashSet<>();
    Set<String> networks = new HashSet<>();
    Set<Map<String, String>> envs = new HashSet<>();
    Set<String> offloads = new HashSet<>();
    int repeats = 1;
    for (Matrix m : matrices) {
      layouts.addAll(m.layouts);
      nodes.addAll(m.nodes);
      networks.addAll(m.networks);
      envs.addAll(m.envs);
      offloads.addAll(m.offloads);
      repeats = Math.max(repeats, m.repeats);
    }
    Naming naming =
        new Naming(
            nodes.size() > 1,
            networks.size() > 1,
            envs.size() > 1,
            offloads.size() > 1,
            repeats > 1);
    List<Variant> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Matrix m : matrices) {
      for (Layout l : m.layouts) {
        for (int n : m.nodes) {
          for (String net : m.networks) {
            for (Map<String, String> env : m.envs) {
              for (String off : m.offloads) {
                for (int r = 1; r <= m.repeats; r++) {
                  String name = naming.name(l, n, net, env, off, r);
                  String unique = name;
                  for (int i = 2; !names.add(unique); i++) {
                    unique = name + "-" + i;
                  }
                  out.add(new Variant(unique, l, n, net, env, off, r));
                }
              }
            }
          }
        }
      }
    }
    return out;
  }

  /** Which values go into a variant's name: the layout always, the rest where they vary. */
  private record Naming(
      boolean nodes, boolean networks, boolean envs, boolean offloads, boolean repeats) {
    String name(Layout l, int n, String net, Map<String, String> env, String off, int r) {
      List<String> parts = new ArrayList<>();
      parts.add(l.toString());
      if (nodes) {
        parts.add(n + "n");
      }
      if (networks && net != null) {
        parts.add(net);
      }
      if (envs && !env.isEmpty()) {
        parts.add(
            env.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(",")));
      }
      if (offloads && off != null) {
        parts.add("offload-" + off);
      }
      if (repeats) {
        parts.add("r" + r);
      }
      return String.join("-", parts);
    }
  }
}
