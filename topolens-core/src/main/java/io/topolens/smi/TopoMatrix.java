package io.topolens.smi;

import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One {@code nvidia-smi topo -m} (or {@code -mp}) matrix as printed.
 *
 * @param file the input it was read from
 * @param gpus the GPU rows/columns in order ({@code GPU0}, {@code GPU1}, ...)
 * @param nics every other device column in order: {@code NIC0}... or old names like {@code mlx5_0}
 * @param nicLegend the NIC legend printed under the matrix ({@code NIC0} to {@code mlx5_0}); empty
 *     when there is none
 * @param links the cells of every well-formed row: row device, then column device, then class
 * @param affinityColumns the affinity columns the header names, in order ({@code CPU Affinity},
 *     {@code NUMA Affinity}, {@code GPU NUMA ID}); older drivers print fewer
 * @param affinity the affinity columns of every well-formed GPU row
 * @param missingRows header devices whose row is absent or was malformed (the excerpt stops early)
 * @param header the header line
 * @param rows the line of every well-formed row
 */
public record TopoMatrix(
    String file,
    List<String> gpus,
    List<String> nics,
    Map<String, String> nicLegend,
    Map<String, Map<String, Link>> links,
    List<String> affinityColumns,
    Map<String, GpuAffinity> affinity,
    List<String> missingRows,
    Evidence header,
    Map<String, Evidence> rows) {

  /** The header column of the CPU affinity. */
  public static final String CPU_AFFINITY = "CPU Affinity";

  /** The header column of the NUMA affinity. */
  public static final String NUMA_AFFINITY = "NUMA Affinity";

  /** The header column of the GPU's own NUMA node. */
  public static final String GPU_NUMA_ID = "GPU NUMA ID";

  /**
   * The class between two devices, read from the first one's row or else the second one's; NICs may
   * be named by column ({@code NIC0}) or by legend ({@code mlx5_0}). Null when neither row was read
   * or a name is no device of this matrix.
   */
  public Link link(String a, String b) {
    String x = column(a);
    String y = column(b);
    if (x == null || y == null) {
      return null;
    }
    Map<String, Link> row = links.get(x);
    if (row != null && row.get(y) != null) {
      return row.get(y);
    }
    Map<String, Link> other = links.get(y);
    return other == null ? null : other.get(x);
  }

  /** Every GPU pair (first before second in matrix order) whose class was read. */
  public List<GpuPair> gpuPairs() {
    List<GpuPair> out = new ArrayList<>();
    for (int i = 0; i < gpus.size(); i++) {
      for (int j = i + 1; j < gpus.size(); j++) {
        Link l = link(gpus.get(i), gpus.get(j));
        if (l != null) {
          out.add(new GpuPair(gpus.get(i), gpus.get(j), l));
        }
      }
    }
    return out;
  }

  /** How many GPU pairs have each class, best class first: e.g. {@code {NV18=28}}. */
  public Map<String, Integer> pairClassCounts() {
    List<Link> cells = gpuPairs().stream().map(GpuPair::link).toList();
    return countByLabel(cells);
  }

  /**
   * How many (GPU, NIC) cells have each class, best class first, one cell per pair: e.g. {@code
   * {PXB=32, SYS=112}}.
   */
  public Map<String, Integer> gpuNicClassCounts() {
    List<Link> cells = new ArrayList<>();
    for (String g : gpus) {
      for (String n : nics) {
        Link l = link(g, n);
        if (l != null) {
          cells.add(l);
        }
      }
    }
    return countByLabel(cells);
  }

  /** For every NIC, the GPUs it is closest to and the class of that path, in matrix order. */
  public Map<String, NicAffinity> nicAffinity() {
    Map<String, NicAffinity> out = new LinkedHashMap<>();
    for (String n : nics) {
      Link best = null;
      List<String> closest = new ArrayList<>();
      for (String g : gpus) {
        Link l = link(g, n);
        if (l == null) {
          continue;
        }
        if (best == null || l.betterThan(best)) {
          best = l;
          closest.clear();
          closest.add(g);
        } else if (!best.betterThan(l)) {
          closest.add(g);
        }
      }
      if (best != null) {
        out.put(n, new NicAffinity(n, nicLegend.getOrDefault(n, n), best, List.copyOf(closest)));
      }
    }
    return out;
  }

  /** The best class between any two GPUs, or null with fewer than two GPUs read. */
  public Link bestGpuLink() {
    return gpuPairs().stream()
        .map(GpuPair::link)
        .reduce((x, y) -> y.betterThan(x) ? y : x)
        .orElse(null);
  }

  /** The worst class between any two GPUs, or null with fewer than two GPUs read. */
  public Link worstGpuLink() {
    return gpuPairs().stream()
        .map(GpuPair::link)
        .reduce((x, y) -> x.betterThan(y) ? y : x)
        .orElse(null);
  }

  /** True when the header names the column ({@link #CPU_AFFINITY}, ...). */
  public boolean hasColumn(String column) {
    return affinityColumns.contains(column);
  }

  private String column(String name) {
    if (gpus.contains(name) || nics.contains(name)) {
      return name;
    }
    for (Map.Entry<String, String> e : nicLegend.entrySet()) {
      if (e.getValue().equals(name) && nics.contains(e.getKey())) {
        return e.getKey();
      }
    }
    return null;
  }

  private static Map<String, Integer> countByLabel(List<Link> cells) {
    Map<String, Link> byLabel = new TreeMap<>();
    Map<String, Integer> counts = new TreeMap<>();
    for (Link l : cells) {
      byLabel.putIfAbsent(l.label(), l);
      counts.merge(l.label(), 1, Integer::sum);
    }
    Map<String, Integer> out = new LinkedHashMap<>();
    byLabel.values().stream()
        .sorted(
            Comparator.comparingInt((Link l) -> l.kind().ordinal())
                .thenComparing(Comparator.comparingInt(Link::nvlinks).reversed()))
        .forEach(l -> out.put(l.label(), counts.get(l.label())));
    return out;
  }
}
