package io.topolens.kube.plan;

import io.topolens.kube.model.Quantity;
import io.topolens.kube.model.Resources;
import io.topolens.kube.settings.KubeSettings;
import io.topolens.kube.yaml.YamlList;
import io.topolens.kube.yaml.YamlMap;
import java.util.Map;

/**
 * The pod pieces every job kind shares, each with its reason: node selector, tolerations, affinity,
 * the /dev/shm volume and mount, the rank container's resources and NCCL environment.
 */
final class PodParts {
  static final String INSTANCE_LABEL = "node.kubernetes.io/instance-type";
  static final String ZONE_LABEL = io.topolens.model.NodeFacts.ZONE_LABEL;
  static final String SHM = "dshm";

  private final Sizing s;

  PodParts(Sizing s) {
    this.s = s;
  }

  /** A document's metadata: {@code name}, and the namespace when one was asked for. */
  YamlMap metadata(String name) {
    YamlMap m = new YamlMap().put("name", name);
    if (s.spec.namespace() != null) {
      m.put("namespace", s.spec.namespace());
    }
    return m;
  }

  /**
   * A rank pod's spec up to its containers: node selector, tolerations, the affinity that spreads
   * or packs the pods carrying {@code podLabels}, and the /dev/shm volume.
   */
  YamlMap rankPod(Map<String, String> podLabels) {
    YamlMap pod =
        new YamlMap().put("nodeSelector", nodeSelector()).put("tolerations", tolerations());
    YamlMap affinity = affinity(podLabels);
    if (!affinity.isEmpty()) {
      pod.put("affinity", affinity);
    }
    pod.put("volumes", volumes(), shmWhy());
    return pod;
  }

  /** The nccl-tests image: the one asked for, else AWS's. */
  String ncclTestsImage() {
    return s.spec.image() == null ? Commands.NCCL_TESTS_IMAGE : s.spec.image();
  }

  /** Why {@link #ncclTestsImage()}. */
  String ncclTestsImageWhy() {
    return s.spec.image() == null
        ? "AWS's nccl-tests image: nccl-tests, OpenMPI, NCCL, the EFA installer and aws-ofi-nccl; pin the tag you tested."
        : "Asked for (--image).";
  }

  /** The launcher's container: it runs mpirun with a CPU and 2Gi, and holds no GPU or EFA. */
  YamlMap mpirunContainer(String name, String image, String imageWhy, String resourcesWhy) {
    return new YamlMap()
        .put("name", name)
        .put("image", image, imageWhy)
        .put("command", YamlList.of(Commands.mpirun(s, true).toArray()), Commands.mpirunWhy(s))
        .put(
            "resources",
            new YamlMap().put("requests", new YamlMap().put("cpu", 1).put("memory", "2Gi")),
            resourcesWhy);
  }

  YamlMap nodeSelector() {
    YamlMap m = new YamlMap();
    m.put(
        INSTANCE_LABEL,
        s.inst.type(),
        "Every pod on a "
            + s.inst.type()
            + ": the GPU count, EFA count, memory and CPU below are sized for it (topolens hardware catalog).");
    if (s.spec.zone() != null) {
      m.put(
          ZONE_LABEL,
          s.spec.zone(),
          "Asked for (--zone): EFA traffic does not cross availability zones, and a cluster placement group lives in one.");
    }
    for (Map.Entry<String, String> e : s.spec.nodeLabels().entrySet()) {
      m.put(
          e.getKey(),
          e.getValue(),
          "Asked for (--node-label): for example the label of a node group launched in a cluster placement group.");
    }
    return m;
  }

  YamlList tolerations() {
    YamlList l = new YamlList();
    l.add(
        new YamlMap()
            .put("key", "nvidia.com/gpu")
            .put("operator", "Exists")
            .put("effect", "NoSchedule"),
        "GPU nodes are commonly tainted nvidia.com/gpu:NoSchedule so that only GPU pods land on them; tolerating a taint a node does not have changes nothing.");
    for (String t : s.spec.tolerations()) {
      l.add(toleration(t), "Asked for (--toleration " + t + ").");
    }
    return l;
  }

  /** {@code KEY[=VALUE][:EFFECT]} as a toleration. */
  static YamlMap toleration(String t) {
    String effect = null;
    String rest = t;
    int colon = t.lastIndexOf(':');
    if (colon > 0) {
      effect = t.substring(colon + 1);
      rest = t.substring(0, colon);
    }
    YamlMap m = new YamlMap();
    int eq = rest.indexOf('=');
    if (eq > 0) {
      m.put("key", rest.substring(0, eq))
          .put("operator", "Equal")
          .put("value", rest.substring(eq + 1));
    } else {
      m.put("key", rest).put("operator", "Exists");
    }
    if (effect != null && !effect.isEmpty()) {
      m.put("effect", effect);
    }
    return m;
  }

  /** Anti-affinity on the hostname (one pod per node) and, if asked, affinity on the zone. */
  YamlMap affinity(Map<String, String> podLabels) {
    YamlMap a = new YamlMap();
    if (s.podsPerNode == 1) {
      a.put(
          "podAntiAffinity",
          required(podLabels, "kubernetes.io/hostname"),
          "Spread by hostname: no two pods of this job on one node, so every pod has its node's GPUs and EFA to itself and ranks of one node never talk over the network (kubeflow/mpi-operator#285).");
    }
    if (s.podsPerNode > 1 && s.spec.nodes() == 1) {
      a.put(
          "podAffinity",
          required(podLabels, "kubernetes.io/hostname"),
          "One node: all "
              + s.pods
              + " pods on the node of the first, as asked; without it the scheduler may spread them over several nodes.");
    } else if (s.spec.sameZone()) {
      a.put(
          "podAffinity",
          required(podLabels, ZONE_LABEL),
          "Asked for (--same-zone): all pods in the zone of the first, as the seeds' TrainJob did; EFA does not cross zones.");
    }
    return a;
  }

  /**
   * A required (anti-)affinity term: the job's pods, by their labels, within {@code topologyKey}.
   */
  private static YamlMap required(Map<String, String> podLabels, String topologyKey) {
    return new YamlMap()
        .put(
            "requiredDuringSchedulingIgnoredDuringExecution",
            YamlList.of(
                new YamlMap()
                    .put("labelSelector", new YamlMap().put("matchLabels", labels(podLabels)))
                    .put("topologyKey", topologyKey)));
  }

  private static YamlMap labels(Map<String, String> labels) {
    YamlMap m = new YamlMap();
    new java.util.TreeMap<>(labels).forEach(m::put); // sorted: Map.of iterates in a random order
    return m;
  }

  YamlList volumes() {
    return YamlList.of(
        new YamlMap()
            .put("name", SHM)
            .put(
                "emptyDir",
                new YamlMap()
                    .put("medium", "Memory")
                    .put("sizeLimit", Quantity.ofBytes(s.shmBytes).text())));
  }

  String shmWhy() {
    return "/dev/shm as a memory-backed emptyDir of "
        + Quantity.ofBytes(s.shmBytes).text()
        + ": "
        + s.why("/dev/shm");
  }

  YamlList mounts() {
    return YamlList.of(new YamlMap().put("name", SHM).put("mountPath", "/dev/shm"));
  }

  /** The rank container's requests and limits. */
  YamlMap resources() {
    YamlMap limits = new YamlMap();
    YamlMap requests = new YamlMap();
    for (YamlMap m : new YamlMap[] {limits, requests}) {
      m.put(
          Resources.GPU,
          s.gpusPerPod,
          m == limits
              ? "All "
                  + s.gpusPerPod
                  + " GPUs of the pod; processes per pod below match it, one rank per GPU."
              : null);
      if (s.efa) {
        m.put(Resources.EFA, s.efaPerPod, m == limits ? s.why("vpc.amazonaws.com/efa") : null);
        m.put(
            Resources.HUGEPAGES_2MI,
            s.hugepages,
            m == limits
                ? "Huge pages for libfabric's buffers; requests equal limits, as Kubernetes requires."
                : null);
      }
      m.put(
          Resources.MEMORY,
          Quantity.ofBytes(s.memoryBytes).text(),
          m == limits ? s.why("memory") + " The /dev/shm volume counts against it." : null);
    }
    requests.put(Resources.CPU, s.cpus, s.why("cpu"));
    return new YamlMap().put("limits", limits).put("requests", requests);
  }

  /** NCCL_DEBUG and its subsystems, for diagnose after the run. */
  YamlList ncclEnv() {
    YamlList l = new YamlList();
    for (KubeSettings.Env e : s.settings.policy().ncclDebug()) {
      l.add(new YamlMap().put("name", e.name()).put("value", e.value()), e.why());
    }
    return l;
  }

  /** The comment on an env list: what is set and what is deliberately not. */
  String envWhy() {
    return "Only what diagnosis needs. "
        + s.settings.instance(s.inst.type()).efaEnvWhy()
        + " NCCL_P2P_LEVEL is left to NCCL (NVL would force SHM on PCIe-only GPUs).";
  }
}
