package io.topolens.ncclxml;

import io.topolens.model.Evidence;
import io.topolens.model.LineSample;
import java.util.List;
import java.util.Optional;

/**
 * An NCCL graph file ({@code NCCL_GRAPH_DUMP_FILE} output, or an {@code NCCL_GRAPH_FILE} input) as
 * written.
 *
 * @param file the input it was read from
 * @param version the {@code <graphs version>}, or null
 * @param graphs every {@code <graph>}, in file order
 * @param unknown elements the format does not have, or that lack a value NCCL requires (a graph
 *     without {@code id}, a device without {@code dev}); left out of the graphs
 * @param root the {@code <graphs>} line
 */
public record NcclGraphs(
    String file, String version, List<NcclGraph> graphs, LineSample unknown, Evidence root) {

  /** The graph of an id (0 ring, 1 tree, ...). */
  public Optional<NcclGraph> graph(int id) {
    return graphs.stream().filter(g -> g.id() == id).findFirst();
  }

  /** The graphs of a pattern, in file order. */
  public List<NcclGraph> byPattern(GraphPattern pattern) {
    return graphs.stream().filter(g -> g.patternKind() == pattern).toList();
  }
}
