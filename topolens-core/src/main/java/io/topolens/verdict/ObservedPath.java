package io.topolens.verdict;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Facts.CommEdge;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.Transport;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The path NCCL's own log says a run took: the slowest path its connections used, within a node or,
 * when the run spans nodes, between nodes.
 *
 * @param how the connections in words, e.g. "P2P/CUMEM/read on 24 of 24 connections"
 * @param nvls whether NVLink SHARP connections were set up too
 */
public record ObservedPath(PathKind path, String how, List<Evidence> evidence, boolean nvls) {

  /**
   * Reads the path from a job's connection lines; null when the log has none. {@code nvlink} says
   * whether P2P between these GPUs rides NVLink.
   */
  public static ObservedPath of(Job job, boolean nvlink) {
    return of(job, nvlink, job.multiNode());
  }

  /**
   * As {@link #of(Job, boolean)}, for a run known to span nodes (or not) from elsewhere: a log of
   * one rank of a two-node run shows one host, yet its NET connections are the ones between nodes.
   */
  public static ObservedPath of(Job job, boolean nvlink, boolean multi) {
    List<CommEdge> all =
        Facts.edges(
            job,
            ce ->
                ce.edge().transport() != Transport.NVLS
                    && ce.edge().transport() != Transport.COLLNET
                    && ce.edge().transport() != Transport.UNKNOWN);
    boolean nvls = !Facts.edges(job, ce -> ce.edge().transport() == Transport.NVLS).isEmpty();
    List<CommEdge> relevant = new ArrayList<>();
    for (CommEdge ce : all) {
      Boolean same = job.sameNode(ce.comm(), ce.edge().from(), ce.edge().to());
      boolean crossing =
          Boolean.FALSE.equals(same) || (same == null && ce.edge().transport() == Transport.NET);
      if (multi == crossing) {
        relevant.add(ce);
      }
    }
    if (relevant.isEmpty()) {
      return null;
    }
    Map<PathKind, List<CommEdge>> byPath = new EnumMap<>(PathKind.class);
    for (CommEdge ce : relevant) {
      PathKind p = PathKind.of(ce.edge().path(), nvlink);
      if (p != null) {
        byPath.computeIfAbsent(p, k -> new ArrayList<>()).add(ce);
      }
    }
    if (byPath.isEmpty()) {
      return null;
    }
    PathKind slowest = null;
    for (PathKind p : byPath.keySet()) {
      if (slowest == null || p.slowerThan(slowest)) {
        slowest = p;
      }
    }
    List<CommEdge> used = byPath.get(slowest);
    List<String> forms =
        used.stream().map(ce -> ce.edge().path().raw()).distinct().limit(3).toList();
    String how =
        String.join(", ", forms)
            + " on "
            + used.size()
            + " of "
            + relevant.size()
            + (multi ? " connections between nodes" : " connections")
            + " in the NCCL log";
    return new ObservedPath(slowest, how, Facts.evidence(used), nvls);
  }
}
