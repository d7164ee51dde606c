package io.topolens.report;

import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.model.Job;
import io.topolens.model.Member;
import io.topolens.present.TransportMap;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * One communicator's connections as a square map: rank x rank, or node x node when the job is
 * large, or groups of nodes when even that is too many to draw; each cell coloured by the slowest
 * path NCCL used between its two sides.
 *
 * @param title what the map shows, in words
 * @param unit what a row is: rank, node or node group
 * @param labels the name of every row (and column), in order
 * @param cells the pairs that have connections (empty pairs are not drawn)
 * @param boundaries row indices where a new node starts (rank maps only)
 * @param connections connections (edges) per path class, for the legend
 * @param table the same connections as a table (the text output's transport map)
 */
public record TransportGrid(
    String title,
    String unit,
    List<String> labels,
    List<Cell> cells,
    List<Integer> boundaries,
    Map<PathClass, Integer> connections,
    TransportMap table) {

  /** Rank maps up to this many ranks; node maps beyond. */
  static final int MAX_RANKS = 64;

  /** Node maps up to this many nodes; groups of consecutive nodes beyond. */
  static final int MAX_SIDE = 128;

  /** Cells get their own tooltip up to this many (beyond, the table says it). */
  static final int MAX_TITLED = 4096;

  /** The node of a rank whose log is missing. */
  static final String NO_LOG = "(no log)";

  /** The plot's largest side in pixels; small maps get 40 pixels a row. */
  static final double SIZE = 480;

  /**
   * One drawn cell.
   *
   * @param title what the cell holds, in words (null past {@link #MAX_TITLED} cells)
   */
  public record Cell(int row, int col, PathClass path, String title) {}

  public static TransportGrid of(Job job, Communicator comm) {
    long n = comm.nRanks();
    for (int r : comm.members().keySet()) {
      n = Math.max(n, r + 1L);
    }
    for (Edge e : comm.edges()) {
      n = Math.max(n, Math.max(e.from(), e.to()) + 1L);
    }
    // ranks without a member are "(no log)": only members and edge ends are visited, so a damaged
    // line naming rank 2,000,000,000 costs nothing
    Map<Integer, Member> members = new TreeMap<>(comm.members());
    IntFunction<String> nodeOf =
        r -> {
          Member m = members.get(r);
          return m == null ? NO_LOG : job.node(m.id().host());
        };
    int firstAbsent = 0;
    while (firstAbsent < n && members.containsKey(firstAbsent)) {
      firstAbsent++;
    }
    Set<String> nodeSet = new LinkedHashSet<>();
    for (int r : members.keySet()) {
      if (r > firstAbsent && firstAbsent < n) {
        nodeSet.add(NO_LOG);
      }
      nodeSet.add(nodeOf.apply(r));
    }
    if (firstAbsent < n) {
      nodeSet.add(NO_LOG);
    }
    List<String> nodes = new ArrayList<>(nodeSet);
    IntUnaryOperator index;
    List<String> labels = new ArrayList<>();
    List<Integer> boundaries = new ArrayList<>();
    String unit;
    if (n <= MAX_RANKS) {
      unit = "rank";
      index = r -> r;
      for (int r = 0; r < n; r++) {
        labels.add(String.valueOf(r));
        if (r > 0 && !nodeOf.apply(r).equals(nodeOf.apply(r - 1))) {
          boundaries.add(r);
        }
      }
    } else {
      int per = (nodes.size() + MAX_SIDE - 1) / MAX_SIDE;
      unit = per == 1 ? "node" : "group of " + per + " nodes";
      Map<String, Integer> at = new LinkedHashMap<>();
      for (int i = 0; i < nodes.size(); i++) {
        at.put(nodes.get(i), i / per);
        if (i % per == 0) {
          int last = Math.min(nodes.size(), i + per) - 1;
          labels.add(per == 1 ? nodes.get(i) : nodes.get(i) + " to " + nodes.get(last));
        }
      }
      index = r -> at.get(nodeOf.apply(r));
    }
    int side = labels.size();
    Map<Long, PathClass> worst = new LinkedHashMap<>();
    Map<Long, Set<String>> paths = new LinkedHashMap<>();
    Map<Long, Integer> count = new LinkedHashMap<>();
    Map<PathClass, Integer> connections = new EnumMap<>(PathClass.class);
    for (Edge e : comm.edges()) {
      PathClass c = PathClass.of(e.path());
      connections.merge(c, 1, Integer::sum);
      long key = (long) index.applyAsInt(e.from()) * side + index.applyAsInt(e.to());
      worst.merge(key, c, (a, b) -> b.slowerThan(a) ? b : a);
      Set<String> p = paths.computeIfAbsent(key, k -> new LinkedHashSet<>());
      if (p.size() < 3) {
        p.add(e.path().raw());
      }
      count.merge(key, 1, Integer::sum);
    }
    boolean titled = worst.size() <= MAX_TITLED;
    List<Cell> cells = new ArrayList<>();
    for (Map.Entry<Long, PathClass> w : worst.entrySet()) {
      int row = (int) (w.getKey() / side);
      int col = (int) (w.getKey() % side);
      String title =
          titled
              ? labels.get(row)
                  + " → "
                  + labels.get(col)
                  + ": "
                  + String.join(", ", paths.get(w.getKey()))
                  + " ("
                  + count.get(w.getKey())
                  + (count.get(w.getKey()) == 1 ? " connection)" : " connections)")
              : null;
      cells.add(new Cell(row, col, w.getValue(), title));
    }
    String from = comm.edges().isEmpty() ? "" : comm.edges().get(0).evidence().file() + ": ";
    long logged = members.size();
    long hosts = nodes.stream().filter(x -> !x.equals(NO_LOG)).count();
    String title =
        from
            + n
            + " ranks"
            + (logged < n ? " (" + (n - logged) + " without a log)" : "")
            + (hosts > 0 ? " on " + hosts + (hosts == 1 ? " node" : " nodes") : "")
            + ", one row per "
            + unit
            + " (communicator "
            + comm.key()
            + ")";
    return new TransportGrid(
        title, unit, labels, cells, boundaries, connections, TransportMap.of(job, comm));
  }

  /** The maps of a job's communicators that have connection lines, largest first, at most max. */
  public static List<TransportGrid> of(Job job, int max) {
    List<TransportGrid> out = new ArrayList<>();
    for (Communicator c : job.communicators()) {
      if (!c.edges().isEmpty() && out.size() < max) {
        out.add(of(job, c));
      }
    }
    return out;
  }

  /** The plot's side in pixels. */
  double side() {
    return Math.min(SIZE, Math.max(160, 40.0 * labels.size()));
  }

  /** Pixels per row. */
  public double step() {
    return side() / Math.max(1, labels.size());
  }

  /** The pixel where row or column {@code i} starts. */
  public String pos(int i) {
    return Num.px(i * step());
  }

  public String cellSize() {
    return Num.px(step());
  }

  /** Whether each row is labelled by name (small maps); large ones name only the first and last. */
  public boolean named() {
    return labels.size() <= 32;
  }

  /** Whether cells are big enough to carry their path's letter (for print and greyscale). */
  public boolean lettered() {
    return step() >= 18;
  }

  public String half(int i) {
    return Num.px((i + 0.5) * step());
  }

  public String size() {
    return Num.px(side());
  }

  /** The SVG's width and height: row names on the left, column names above, a caption below. */
  public String width() {
    return Num.px(side() + 170);
  }

  public String height() {
    return Num.px(side() + 56);
  }

  /** Where the caption sits under the plot. */
  public String caption() {
    return Num.px(side() + 20);
  }

  /** One sentence a screen reader reads for the whole map. */
  public String description() {
    StringBuilder s = new StringBuilder(labels.size() + " by " + labels.size() + " map; ");
    List<String> parts = new ArrayList<>();
    connections.forEach((k, v) -> parts.add(v + " connections over " + k.label()));
    s.append(String.join(", ", parts)).append('.');
    if (!boundaries.isEmpty()) {
      s.append(" Lines mark where a new node starts.");
    }
    return s.toString();
  }
}
