package io.topolens.lab.experiment;

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

  /** Every variant, named by the values that differ between them. */
  public List<Variant> variants() {
    List<Variant> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Layout l : layouts) {
      for (int n : nodes) {
        for (String net : networks) {
          for (Map<String, String> env : envs) {
            for (String off : offloads) {
              for (int r = 1; r <= repeats; r++) {
                String name = name(l, n, net, env, off, r);
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
    return out;
  }

  private String name(Layout l, int n, String net, Map<String, String> env, String off, int r) {
    List<String> parts = new ArrayList<>();
    parts.add(l.toString());
    if (nodes.size() > 1) {
      parts.add(n + "n");
    }
    if (networks.size() > 1 && net != null) {
      parts.add(net);
    }
    if (envs.size() > 1 && !env.isEmpty()) {
      parts.add(
          env.entrySet().stream()
              .map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.joining(",")));
    }
    if (offloads.size() > 1 && off != null) {
      parts.add("offload-" + off);
    }
    if (repeats > 1) {
      parts.add("r" + r);
    }
    return String.join("-", parts);
  }
}
