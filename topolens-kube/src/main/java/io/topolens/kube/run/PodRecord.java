package io.topolens.kube.run;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * What a run learned about one pod of the job.
 *
 * @param hostname the name NCCL logs print: {@code spec.hostname} when set (Indexed Jobs, MPI
 *     workers), else the pod's name
 * @param node the node it was scheduled on, or null if it never was
 * @param phase its last phase
 * @param logs container name to the log file (relative to the log folder)
 * @param exitCodes container name to exit code, for terminated containers
 * @param problem why it did not run, when it said so (Unschedulable, ImagePullBackOff), or null
 * @param efa {@code vpc.amazonaws.com/efa} devices its containers request, 0 for none
 */
public record PodRecord(
    String name,
    String hostname,
    String node,
    String phase,
    Map<String, String> logs,
    Map<String, Integer> exitCodes,
    String problem,
    int efa) {

  public PodRecord {
    logs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(logs));
    exitCodes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(exitCodes));
  }

  /** The containers whose logs were taken: the keys of {@code logs}, each once. */
  public List<String> containers() {
    return logs.keySet().stream().map(k -> k.replace(" (previous)", "")).distinct().toList();
  }

  /**
   * The EFA devices a pod's containers ask for: each container's limit of {@code
   * vpc.amazonaws.com/efa} (a device plugin's resource; a request alone counts where no limit is
   * set).
   */
  public static int efaRequested(io.fabric8.kubernetes.api.model.Pod p) {
    if (p.getSpec() == null) {
      return 0;
    }
    int sum = 0;
    for (var c : p.getSpec().getContainers()) {
      var r = c.getResources();
      if (r == null) {
        continue;
      }
      var q =
          r.getLimits() == null ? null : r.getLimits().get(io.topolens.kube.model.Resources.EFA);
      if (q == null && r.getRequests() != null) {
        q = r.getRequests().get(io.topolens.kube.model.Resources.EFA);
      }
      if (q != null) {
        try {
          sum += io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(q).intValueExact();
        } catch (ArithmeticException | IllegalArgumentException e) {
          // not a count: asks for none this reader can tell
        }
      }
    }
    return sum;
  }

  /** Pods that shared a node, node to pod names; only nodes with two or more. */
  public static Map<String, List<String>> shared(List<PodRecord> pods) {
    Map<String, List<String>> byNode = new java.util.TreeMap<>();
    for (PodRecord p : pods) {
      if (p.node() != null) {
        byNode.computeIfAbsent(p.node(), n -> new java.util.ArrayList<>()).add(p.name());
      }
    }
    byNode.values().removeIf(l -> l.size() < 2);
    byNode.values().forEach(java.util.Collections::sort);
    return byNode;
  }

  /** This pod as one JSON object, as run.json and collect.json record it. */
  public void write(JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", name);
    g.writeStringField("hostname", hostname);
    g.writeStringField("node", node);
    g.writeStringField("phase", phase);
    g.writeStringField("problem", problem);
    g.writeNumberField("efa", efa);
    g.writeObjectFieldStart("logs");
    for (var e : logs.entrySet()) {
      g.writeStringField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
    g.writeObjectFieldStart("exitCodes");
    for (var e : exitCodes.entrySet()) {
      g.writeNumberField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
    g.writeEndObject();
  }
}
