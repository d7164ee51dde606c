package io.topolens.kube.collect;

import io.topolens.kube.run.PodRecord;
import io.topolens.model.Cluster;
import io.topolens.model.NodeFacts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What was collected from the cluster, and where it lies: {@code logs/} (one file per container and
 * attempt), {@code nodes.txt} (the node map diagnose reads), {@code manifest.yaml} (the job and its
 * Trainer runtime, for lint) and {@code collect.json} (this record).
 *
 * @param job {@code TrainJob llama-8b}, or null when pods were chosen by a selector
 * @param selector the label selector the pods were listed with
 * @param gone logs that could not be read, each with why
 * @param logs log files written
 * @param bytes their total size
 */
public record Collection(
    Path dir,
    String job,
    String namespace,
    String selector,
    List<PodRecord> pods,
    List<NodeFacts> nodes,
    List<GoneLog> gone,
    int logs,
    long bytes) {
  public static final String FILE = "collect.json";
  public static final String LOGS = "logs";
  public static final String NODE_MAP = "nodes.txt";
  public static final String MANIFEST = "manifest.yaml";

  public Collection {
    pods = List.copyOf(pods);
    nodes = List.copyOf(nodes);
    gone = List.copyOf(gone);
  }

  public Path logDir() {
    return dir.resolve(LOGS);
  }

  /** The node map, or null when no pod was scheduled. */
  public Path nodeMap() {
    return pods.stream().anyMatch(p -> p.node() != null) ? dir.resolve(NODE_MAP) : null;
  }

  /** The instance type most of the job's nodes carry, or null when none says. */
  public String instanceType() {
    return nodes.stream()
        .filter(n -> n.instanceType() != null)
        .collect(Collectors.groupingBy(NodeFacts::instanceType, Collectors.counting()))
        .entrySet()
        .stream()
        .max(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
        .map(Map.Entry::getKey)
        .orElse(null);
  }

  /** The pods and nodes as diagnose judges them. */
  public Cluster cluster() {
    return new Cluster(
        nodes,
        pods.stream()
            .map(p -> new Cluster.PodRequest(p.name(), p.node(), p.efa(), p.containers()))
            .toList());
  }

  /** The nodes grouped by what they say ({@link NodeFacts#summary}). */
  public List<String> hardware() {
    return NodeFacts.summary(nodes);
  }

  /** {@code TrainJob llama-8b in namespace ml}, or the selector's words. */
  public String label() {
    return (job != null ? job : "pods " + selector) + " in namespace " + namespace;
  }
}
