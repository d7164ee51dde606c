package io.topolens.diagnose;

import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.Member;
import io.topolens.model.PathDetail;
import io.topolens.model.Transport;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/** Small questions rules ask of the model, and the wording they share. */
public final class Facts {
  private Facts() {}

  /** An edge together with the communicator it belongs to. */
  public record CommEdge(Communicator comm, Edge edge) {}

  /** Every edge of every communicator that passes {@code test}. */
  public static List<CommEdge> edges(Job job, Predicate<CommEdge> test) {
    List<CommEdge> out = new ArrayList<>();
    for (Communicator c : job.communicators()) {
      for (Edge e : c.edges()) {
        CommEdge ce = new CommEdge(c, e);
        if (test.test(ce)) {
          out.add(ce);
        }
      }
    }
    return out;
  }

  /**
   * Whether a connection was printed by a process: one of its ranks ran there, or, where the log of
   * neither rank says where it ran (lines before any communicator line), the connection line is in
   * the file that process printed to.
   */
  public static boolean printedBy(CommEdge ce, String process, Evidence processLine) {
    Member from = ce.comm().members().get(ce.edge().from());
    Member to = ce.comm().members().get(ce.edge().to());
    if (from == null && to == null) {
      return processLine != null && ce.edge().evidence().file().equals(processLine.file());
    }
    return (from != null && process.equals(from.id().host() + ":" + from.id().pid()))
        || (to != null && process.equals(to.id().host() + ":" + to.id().pid()));
  }

  /**
   * Connections between ranks on different nodes over NCCL's TCP sockets: different hostnames (or
   * nodes of the node map); where a rank's log is missing, a communicator NCCL counted on several
   * nodes.
   */
  public static List<CommEdge> interNodeSockets(Job job) {
    return edges(
        job,
        ce -> {
          if (!isSocket(ce.edge())) {
            return false;
          }
          Boolean same = job.sameNode(ce.comm(), ce.edge().from(), ce.edge().to());
          return same == null ? ce.comm().nNodes() > 1 : !same;
        });
  }

  public static boolean isSocket(Edge e) {
    return e.path() instanceof PathDetail.Net n && n.isSocket();
  }

  public static boolean isNet(Edge e) {
    return e.transport() == Transport.NET;
  }

  /** Distinct unordered rank pairs, as "0-1, 1-2", at most {@code max} then "and N more". */
  public static String pairs(Collection<CommEdge> edges, int max) {
    Set<String> pairs = new LinkedHashSet<>();
    for (CommEdge ce : edges) {
      int a = Math.min(ce.edge().from(), ce.edge().to());
      int b = Math.max(ce.edge().from(), ce.edge().to());
      pairs.add(a + "-" + b);
    }
    return list(new ArrayList<>(pairs), max);
  }

  /** Distinct unordered rank pairs. */
  public static long pairCount(Collection<CommEdge> edges) {
    return edges.stream()
        .map(
            ce ->
                Math.min(ce.edge().from(), ce.edge().to())
                    + "-"
                    + Math.max(ce.edge().from(), ce.edge().to())
                    + "@"
                    + ce.comm().key())
        .distinct()
        .count();
  }

  public static String list(List<?> items, int max) {
    if (items.size() <= max) {
      return String.join(", ", items.stream().map(String::valueOf).toList());
    }
    return String.join(", ", items.subList(0, max).stream().map(String::valueOf).toList())
        + " and "
        + (items.size() - max)
        + " more";
  }

  /** The first line of each edge, in order, without repeats. */
  public static List<Evidence> evidence(Collection<CommEdge> edges) {
    return edges.stream().map(ce -> ce.edge().evidence()).distinct().toList();
  }

  public static String seconds(double s) {
    return String.format(Locale.ROOT, s >= 10 ? "%.1f s" : "%.2f s", s);
  }

  public static String plural(long n, String word) {
    return n + " " + word + (n == 1 ? "" : "s");
  }
}
