package io.topolens.lab.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.topolens.catalog.InstanceSpec;
import io.topolens.kube.model.Resources;
import io.topolens.kube.run.RunKind;
import io.topolens.lab.experiment.Variant;
import java.util.Map;

/**
 * Changes a TrainJob or PyTorchJob for one variant: the command, the environment (the experiment's,
 * then the variant's, replacing variables of the same name), the probe's ConfigMap as a volume
 * mounted into the rank container, and, for a user's own manifest, the layout: pods, processes and
 * GPUs per pod, and EFA devices as the variant's network asks.
 */
final class JobPatch {
  /** The runtime patch topolens adds when a TrainJob has none for its node pods. */
  static final String MANAGER = "topolens.io/experiment";

  private final ObjectNode job;
  private final String kind;

  /**
   * @param job the job document, changed in place
   */
  JobPatch(ObjectNode job) {
    this.job = job;
    this.kind = job.path("kind").asText();
  }

  /** Whether this patch knows the job's kind. */
  static boolean knows(JsonNode job) {
    String k = job.path("kind").asText();
    return k.equals("TrainJob") || k.equals("PyTorchJob");
  }

  /** Runs {@code line} through bash in every rank container, replacing the command and args. */
  JobPatch command(String line) {
    for (ObjectNode c : rankContainers()) {
      ArrayNode cmd = c.putArray("command");
      cmd.add("/bin/bash").add("-c").add(line);
      c.remove("args");
    }
    return this;
  }

  /** Sets every variable of {@code env}, replacing one of the same name. */
  JobPatch env(Map<String, String> env) {
    for (ObjectNode c : rankContainers()) {
      ArrayNode list = c.has("env") ? (ArrayNode) c.get("env") : c.putArray("env");
      for (var e : env.entrySet()) {
        ObjectNode item = null;
        for (JsonNode n : list) {
          if (n.path("name").asText().equals(e.getKey())) {
            item = (ObjectNode) n;
          }
        }
        if (item == null) {
          item = list.addObject().put("name", e.getKey());
        }
        item.remove("valueFrom");
        item.put("value", e.getValue());
      }
    }
    return this;
  }

  /** Mounts ConfigMap {@code configMap} read-only at {@link ProbeConfigMap#MOUNT}. */
  JobPatch mountProbe(String configMap) {
    for (ObjectNode pod : rankPodSpecs()) {
      ArrayNode vols =
          pod.has("volumes") ? (ArrayNode) pod.get("volumes") : pod.putArray("volumes");
      vols.addObject()
          .put("name", ProbeConfigMap.VOLUME)
          .putObject("configMap")
          .put("name", configMap);
    }
    for (ObjectNode c : mountContainers()) {
      ArrayNode m =
          c.has("volumeMounts") ? (ArrayNode) c.get("volumeMounts") : c.putArray("volumeMounts");
      m.addObject()
          .put("name", ProbeConfigMap.VOLUME)
          .put("mountPath", ProbeConfigMap.MOUNT)
          .put("readOnly", true);
    }
    return this;
  }

  /**
   * A variant runs once: a failed rank fails the job instead of restarting in place (PyTorchJob's
   * replicas restart OnFailure by default).
   */
  JobPatch noRestarts() {
    if (kind.equals("PyTorchJob")) {
      for (ObjectNode r : replicas()) {
        r.put("restartPolicy", "Never");
      }
      ((ObjectNode) job.path("spec")).withObjectProperty("runPolicy").put("backoffLimit", 0);
    }
    return this;
  }

  /**
   * A user's manifest shaped as the variant: {@code pods} pods of {@code v}'s GPUs per pod, one
   * process per GPU, and EFA as its network says ({@code instance} gives the count; null keeps the
   * manifest's when EFA is asked for).
   */
  JobPatch layout(Variant v, InstanceSpec instance) {
    int pods = v.layout().pods() * v.nodes();
    int gpus = v.layout().gpusPerPod();
    if (kind.equals("TrainJob")) {
      ObjectNode t = ((ObjectNode) job.path("spec")).withObjectProperty("trainer");
      t.put("numNodes", pods);
      t.put("numProcPerNode", gpus);
      resources(t.withObjectProperty("resourcesPerNode"), gpus, v.network(), instance);
    } else {
      ObjectNode spec = (ObjectNode) job.path("spec");
      spec.put("nprocPerNode", String.valueOf(gpus));
      ObjectNode specs = spec.withObjectProperty("pytorchReplicaSpecs");
      if (specs.has("Master")) {
        ((ObjectNode) specs.get("Master")).put("replicas", 1);
        if (pods > 1) {
          if (!specs.has("Worker")) {
            specs.set("Worker", specs.get("Master").deepCopy());
          }
          ((ObjectNode) specs.get("Worker")).put("replicas", pods - 1);
        } else {
          specs.remove("Worker");
        }
      } else if (specs.has("Worker")) {
        ((ObjectNode) specs.get("Worker")).put("replicas", pods);
      }
      for (ObjectNode c : rankContainers()) {
        resources(c.withObjectProperty("resources"), gpus, v.network(), instance);
      }
    }
    return this;
  }

  /**
   * The placement of a user's manifest made the variant's: selectors of pod (anti-)affinity that
   * name the job's original name name the variant's job instead; with one pod per node, the pods
   * are spread over nodes by hostname (as {@code plan} writes it); with several, a hostname
   * anti-affinity among the job's own pods, which would leave them unschedulable, is removed, and
   * on one node they are kept together by hostname affinity.
   *
   * @param original the job's name in the user's manifest
   * @param name the variant's job name, already set in the manifest
   */
  JobPatch placement(String original, String name, Variant v) {
    String label =
        kind.equals("TrainJob") ? RunKind.TRAIN_JOB.podLabel() : RunKind.PYTORCH_JOB.podLabel();
    int perNode = v.layout().pods();
    for (ObjectNode pod : rankPodSpecs()) {
      ObjectNode affinity = pod.withObjectProperty("affinity");
      for (String kindOf : new String[] {"podAffinity", "podAntiAffinity"}) {
        for (JsonNode terms : affinity.path(kindOf)) {
          for (JsonNode term : terms) {
            // preferred terms hold theirs under podAffinityTerm
            JsonNode t = term.has("podAffinityTerm") ? term.get("podAffinityTerm") : term;
            if (t.path("labelSelector").path("matchLabels") instanceof ObjectNode m) {
              m.properties().stream()
                  .filter(e -> e.getValue().asText().equals(original))
                  .map(Map.Entry::getKey)
                  .toList()
                  .forEach(k -> m.put(k, name));
            }
          }
        }
      }
      if (perNode == 1 && v.nodes() > 1) {
        if (!hostnameTerm(affinity.path("podAntiAffinity"), label, name)) {
          requiredTerms(affinity, "podAntiAffinity").add(hostnameTerm(label, name));
        }
      } else if (perNode > 1) {
        if (affinity.path("podAntiAffinity").path(REQUIRED) instanceof ArrayNode terms) {
          for (int i = terms.size() - 1; i >= 0; i--) {
            if (selects(terms.get(i), label, name)) {
              terms.remove(i);
            }
          }
        }
        if (v.nodes() == 1 && !hostnameTerm(affinity.path("podAffinity"), label, name)) {
          requiredTerms(affinity, "podAffinity").add(hostnameTerm(label, name));
        }
      }
      if (affinity.path("podAntiAffinity").path(REQUIRED).isEmpty()
          && affinity.path("podAntiAffinity") instanceof ObjectNode anti) {
        anti.remove(REQUIRED);
        if (anti.isEmpty()) {
          affinity.remove("podAntiAffinity");
        }
      }
      if (affinity.isEmpty()) {
        pod.remove("affinity");
      }
    }
    return this;
  }

  private static final String REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution";
  private static final String HOSTNAME = "kubernetes.io/hostname";

  private static ArrayNode requiredTerms(ObjectNode affinity, String kindOf) {
    ObjectNode a = affinity.withObjectProperty(kindOf);
    return a.has(REQUIRED) ? (ArrayNode) a.get(REQUIRED) : a.putArray(REQUIRED);
  }

  private static ObjectNode hostnameTerm(String label, String name) {
    ObjectNode t = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    t.withObjectProperty("labelSelector").withObjectProperty("matchLabels").put(label, name);
    t.put("topologyKey", HOSTNAME);
    return t;
  }

  /** Whether a required term on the hostname selects the job's pods. */
  private static boolean hostnameTerm(JsonNode affinity, String label, String name) {
    for (JsonNode t : affinity.path(REQUIRED)) {
      if (selects(t, label, name)) {
        return true;
      }
    }
    return false;
  }

  private static boolean selects(JsonNode term, String label, String name) {
    return term.path("topologyKey").asText().equals(HOSTNAME)
        && term.path("labelSelector").path("matchLabels").path(label).asText().equals(name);
  }

  private static void resources(ObjectNode r, int gpus, String network, InstanceSpec instance) {
    for (String side : new String[] {"limits", "requests"}) {
      ObjectNode m = r.withObjectProperty(side);
      m.put(Resources.GPU, gpus);
      if (network == null) {
        continue;
      }
      if (network.equals("efa")) {
        if (instance != null && instance.efa() > 0) {
          m.put(Resources.EFA, Math.max(1, instance.efa() * gpus / instance.gpus()));
        }
      } else {
        m.remove(Resources.EFA);
        m.remove(Resources.HUGEPAGES_2MI);
      }
    }
  }

  /** The rank containers: TrainJob's trainer, each PyTorchJob replica's {@code pytorch}. */
  private java.util.List<ObjectNode> rankContainers() {
    java.util.List<ObjectNode> out = new java.util.ArrayList<>();
    if (kind.equals("TrainJob")) {
      out.add(((ObjectNode) job.path("spec")).withObjectProperty("trainer"));
      return out;
    }
    for (ObjectNode pod : rankPodSpecs()) {
      out.add(rankContainer(pod, "pytorch"));
    }
    return out;
  }

  /** Where the volume mount goes: a TrainJob's node container patch, else the rank containers. */
  private java.util.List<ObjectNode> mountContainers() {
    if (!kind.equals("TrainJob")) {
      return rankContainers();
    }
    java.util.List<ObjectNode> out = new java.util.ArrayList<>();
    for (ObjectNode pod : rankPodSpecs()) {
      out.add(rankContainer(pod, "node"));
    }
    return out;
  }

  private static ObjectNode rankContainer(ObjectNode pod, String name) {
    ArrayNode cs =
        pod.has("containers") ? (ArrayNode) pod.get("containers") : pod.putArray("containers");
    for (JsonNode c : cs) {
      if (c.path("name").asText().equals(name)) {
        return (ObjectNode) c;
      }
    }
    if (!cs.isEmpty() && name.equals("pytorch")) {
      return (ObjectNode) cs.get(0);
    }
    return cs.addObject().put("name", name);
  }

  private java.util.List<ObjectNode> replicas() {
    java.util.List<ObjectNode> out = new java.util.ArrayList<>();
    job.path("spec")
        .path("pytorchReplicaSpecs")
        .forEach(
            r -> {
              if (r.isObject()) {
                out.add((ObjectNode) r);
              }
            });
    return out;
  }

  /** The pod specs of the rank pods (a TrainJob's node pods through its runtime patch). */
  private java.util.List<ObjectNode> rankPodSpecs() {
    java.util.List<ObjectNode> out = new java.util.ArrayList<>();
    if (kind.equals("PyTorchJob")) {
      for (ObjectNode r : replicas()) {
        out.add(r.withObjectProperty("template").withObjectProperty("spec"));
      }
      return out;
    }
    ObjectNode spec = (ObjectNode) job.path("spec");
    ArrayNode patches =
        spec.has("runtimePatches")
            ? (ArrayNode) spec.get("runtimePatches")
            : spec.putArray("runtimePatches");
    for (JsonNode p : patches) {
      for (JsonNode rj :
          p.path("trainingRuntimeSpec").path("template").path("spec").path("replicatedJobs")) {
        if (rj.path("name").asText().equals("node")) {
          out.add(
              ((ObjectNode) rj)
                  .withObjectProperty("template")
                  .withObjectProperty("spec")
                  .withObjectProperty("template")
                  .withObjectProperty("spec"));
          return out;
        }
      }
    }
    ObjectNode node =
        patches
            .addObject()
            .put("manager", MANAGER)
            .withObjectProperty("trainingRuntimeSpec")
            .withObjectProperty("template")
            .withObjectProperty("spec")
            .putArray("replicatedJobs")
            .addObject()
            .put("name", "node");
    out.add(
        node.withObjectProperty("template")
            .withObjectProperty("spec")
            .withObjectProperty("template")
            .withObjectProperty("spec"));
    return out;
  }
}
