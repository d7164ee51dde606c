package io.topolens.kube.collect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topolens.kube.model.Resources;
import io.topolens.kube.run.KubeClients;
import io.topolens.kube.run.PodRecord;
import io.topolens.kube.run.RunKind;
import io.topolens.kube.run.RunListener;
import io.topolens.kube.run.RunRecords;
import io.topolens.model.NodeFacts;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Collects a job from the cluster, read-only (get and list only): the job's manifest (and a
 * TrainJob's runtime), its pods, their current and previous containers' logs, the node of each pod
 * and what each node allocates. Writes them into the request's folder as a {@link Collection}. A
 * refusal names the missing permission; logs that cannot be read are listed, not skipped. Not
 * thread-safe; one collection per call.
 */
public final class JobCollector {
  private static final YAMLMapper YAML =
      new YAMLMapper(
          YAMLFactory.builder()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              // env values such as "1" stay strings, as the API server requires
              .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
              .build());

  private final KubernetesClient client;
  private final RunListener listener;

  public JobCollector(KubernetesClient client, RunListener listener) {
    this.client = client;
    this.listener = listener;
  }

  public Collection collect(CollectRequest r) throws InputProblem, IOException {
    String ns = r.namespace() != null ? r.namespace() : namespaceOfContext();
    String server = server();
    Path logs = r.dir().resolve(Collection.LOGS);
    Files.createDirectories(logs);
    String selector = r.selector();
    if (r.job() != null) {
      JsonNode job = job(r.job(), ns, server);
      manifest(r.dir(), job, ns, server);
      selector = r.job().kind().podLabel() + "=" + r.job().name();
    }
    String sel = selector;
    List<Pod> pods =
        Access.read(
            "list",
            "pods",
            ns,
            server,
            () ->
                client
                    .pods()
                    .inNamespace(ns)
                    .list(new ListOptionsBuilder().withLabelSelector(sel).build())
                    .getItems());
    String what = r.job() != null ? r.job().label() : "pods " + selector;
    if (pods.isEmpty()) {
      throw new InputProblem(
          "no pods of "
              + what
              + " in namespace "
              + ns
              + " (label "
              + selector
              + "); they are deleted when a job is, and some operators delete them when it ends"
              + " (kubectl get pods -n "
              + ns
              + " -l "
              + selector
              + ")");
    }
    pods =
        pods.stream()
            .sorted(java.util.Comparator.comparing(p -> p.getMetadata().getName()))
            .toList();
    List<NodeFacts> nodes = nodes(pods, server);
    listener.progress(
        what
            + " in namespace "
            + ns
            + ": "
            + pods.size()
            + " pod(s) on "
            + nodes.size()
            + " node(s)"
            + (nodes.isEmpty() ? "" : ": " + String.join(", ", NodeFacts.summary(nodes))));
    List<LogFetcher.Task> tasks = new ArrayList<>();
    List<GoneLog> gone = new ArrayList<>();
    Map<String, Map<String, String>> files = new LinkedHashMap<>();
    for (Pod p : pods) {
      tasks.addAll(tasks(p, logs, gone, files));
    }
    List<LogFetcher.Result> results =
        new LogFetcher(client, ns, server, r.parallel(), listener).fetch(tasks);
    long bytes = 0;
    int written = 0;
    for (LogFetcher.Result res : results) {
      if (res.gone() != null) {
        gone.add(res.gone());
        files.get(res.task().pod()).remove(res.task().label());
      } else {
        bytes += res.bytes();
        written++;
      }
    }
    gone.sort(java.util.Comparator.comparing(GoneLog::pod).thenComparing(GoneLog::container));
    List<PodRecord> records = new ArrayList<>();
    for (Pod p : pods) {
      records.add(record(p, files.get(p.getMetadata().getName())));
    }
    Collection c =
        new Collection(
            r.dir(),
            r.job() == null ? null : r.job().label(),
            ns,
            selector,
            records,
            nodes,
            gone,
            written,
            bytes);
    RunRecords.nodeMap(r.dir(), records);
    CollectionFile.write(c);
    if (!gone.isEmpty()) {
      listener.progress(
          gone.size()
              + " log(s) could not be read: "
              + String.join(", ", gone.stream().limit(20).map(GoneLog::toString).toList())
              + (gone.size() > 20 ? " and " + (gone.size() - 20) + " more (collect.json)" : ""));
    }
    return c;
  }

  private String namespaceOfContext() {
    return KubeClients.contextNamespace(client);
  }

  private String server() {
    return KubeClients.server(client);
  }

  private static String resource(RunKind k) {
    return k.plural() + (k.group().equals("batch") ? ".batch" : "." + k.group());
  }

  private JsonNode job(JobRef ref, String ns, String server) throws InputProblem {
    GenericKubernetesResource r;
    try {
      r =
          client
              .genericKubernetesResources(ref.kind().context())
              .inNamespace(ns)
              .withName(ref.name())
              .get();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        throw new InputProblem(
            "cannot get "
                + ref.label()
                + ": the cluster has no "
                + ref.kind().kind()
                + " ("
                + ref.kind().apiVersion()
                + "); is its operator installed? (kubectl get crd "
                + ref.kind().plural()
                + "."
                + ref.kind().group()
                + ")");
      }
      throw Access.problem(e, "get", resource(ref.kind()), ns, server);
    }
    if (r == null) {
      throw new InputProblem(
          "no "
              + ref.label()
              + " in namespace "
              + ns
              + " (kubectl get "
              + ref.kind().plural()
              + " -n "
              + ns
              + ")");
    }
    return client.getKubernetesSerialization().convertValue(r, JsonNode.class);
  }

  /** Writes the job (and a TrainJob's runtime, when it can be read) as lint reads it. */
  private void manifest(Path dir, JsonNode job, String ns, String server) throws IOException {
    StringBuilder out = new StringBuilder();
    out.append("# The job as the cluster holds it (status and server-set metadata removed)\n");
    out.append(YAML.writeValueAsString(clean(job)));
    if ("TrainJob".equals(job.path("kind").asText())) {
      JsonNode ref = job.path("spec").path("runtimeRef");
      String kind = ref.path("kind").asText("ClusterTrainingRuntime");
      String name = ref.path("name").asText(null);
      RunKind rk =
          kind.equals("TrainingRuntime")
              ? RunKind.TRAINING_RUNTIME
              : RunKind.CLUSTER_TRAINING_RUNTIME;
      if (name != null) {
        try {
          var op = client.genericKubernetesResources(rk.context());
          GenericKubernetesResource rt =
              (rk.namespaced() ? op.inNamespace(ns) : op).withName(name).get();
          if (rt != null) {
            out.append("---\n# Its runtime\n");
            out.append(
                YAML.writeValueAsString(
                    clean(client.getKubernetesSerialization().convertValue(rt, JsonNode.class))));
          } else {
            listener.progress("the TrainJob's " + kind + " " + name + " is not in the cluster");
          }
        } catch (KubernetesClientException e) {
          listener.progress(
              "cannot read the TrainJob's "
                  + kind
                  + " "
                  + name
                  + " ("
                  + (e.getCode() == 403 ? "forbidden: get " + resource(rk) : e.getCode())
                  + "); manifest.yaml holds the job only");
        }
      }
    }
    Files.writeString(dir.resolve(Collection.MANIFEST), out.toString(), StandardCharsets.UTF_8);
  }

  private static JsonNode clean(JsonNode doc) {
    ObjectNode o = doc.deepCopy();
    o.remove("status");
    if (o.get("metadata") instanceof ObjectNode m) {
      for (String f :
          List.of(
              "managedFields",
              "resourceVersion",
              "uid",
              "creationTimestamp",
              "generation",
              "selfLink",
              "ownerReferences",
              "finalizers")) {
        m.remove(f);
      }
      if (m.get("annotations") instanceof ObjectNode a) {
        a.remove("kubectl.kubernetes.io/last-applied-configuration");
        if (a.isEmpty()) {
          m.remove("annotations");
        }
      }
    }
    return o;
  }

  private List<NodeFacts> nodes(List<Pod> pods, String server) throws InputProblem {
    TreeSet<String> names = new TreeSet<>();
    for (Pod p : pods) {
      if (p.getSpec() != null && p.getSpec().getNodeName() != null) {
        names.add(p.getSpec().getNodeName());
      }
    }
    List<NodeFacts> out = new ArrayList<>();
    for (String n : names) {
      Node node = Access.read("get", "nodes", null, server, () -> client.nodes().withName(n).get());
      out.add(node == null ? NodeFacts.unknown(n) : facts(node));
    }
    return out;
  }

  /**
   * What a node says of itself: its instance type and zone labels, its allocatable GPUs and EFA.
   */
  public static NodeFacts facts(Node n) {
    Map<String, String> labels = n.getMetadata().getLabels();
    Map<String, Quantity> alloc =
        n.getStatus() == null || n.getStatus().getAllocatable() == null
            ? Map.of()
            : n.getStatus().getAllocatable();
    return new NodeFacts(
        n.getMetadata().getName(),
        labels == null ? null : labels.get(NodeFacts.INSTANCE_TYPE_LABEL),
        count(alloc.get(Resources.GPU)),
        count(alloc.get(Resources.EFA)),
        labels == null ? null : labels.get(NodeFacts.ZONE_LABEL));
  }

  private static Integer count(Quantity q) {
    if (q == null) {
      return null;
    }
    try {
      int n = Quantity.getAmountInBytes(q).intValueExact();
      return n == 0 ? null : n;
    } catch (ArithmeticException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The logs of one pod to fetch: each container's current attempt once it started, and its
   * previous attempt when it restarted. Containers that never started are added to {@code gone}.
   */
  private static List<LogFetcher.Task> tasks(
      Pod p, Path dir, List<GoneLog> gone, Map<String, Map<String, String>> files) {
    String pod = p.getMetadata().getName();
    Map<String, String> mine = files.computeIfAbsent(pod, k -> new LinkedHashMap<>());
    List<LogFetcher.Task> out = new ArrayList<>();
    if (p.getSpec() == null) {
      return out;
    }
    List<io.fabric8.kubernetes.api.model.Container> containers = p.getSpec().getContainers();
    Map<String, ContainerStatus> statuses = new LinkedHashMap<>();
    if (p.getStatus() != null) {
      p.getStatus().getContainerStatuses().forEach(s -> statuses.put(s.getName(), s));
    }
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    for (var c : containers) {
      String base = containers.size() == 1 ? pod : pod + "." + c.getName();
      ContainerStatus s = statuses.get(c.getName());
      boolean started =
          s != null
              && s.getState() != null
              && (s.getState().getRunning() != null || s.getState().getTerminated() != null);
      boolean restarted =
          s != null
              && ((s.getRestartCount() != null && s.getRestartCount() > 0)
                  || (s.getLastState() != null && s.getLastState().getTerminated() != null));
      if (started || (s == null && ("Succeeded".equals(phase) || "Failed".equals(phase)))) {
        out.add(new LogFetcher.Task(pod, c.getName(), false, dir.resolve(base + ".log")));
        mine.put(c.getName(), Collection.LOGS + "/" + base + ".log");
      } else {
        gone.add(new GoneLog(pod, c.getName(), neverStarted(p, s)));
      }
      if (restarted) {
        String f = base + ".previous.log";
        out.add(new LogFetcher.Task(pod, c.getName(), true, dir.resolve(f)));
        mine.put(c.getName() + " (previous)", Collection.LOGS + "/" + f);
      }
    }
    return out;
  }

  private static String neverStarted(Pod p, ContainerStatus s) {
    var w = s == null || s.getState() == null ? null : s.getState().getWaiting();
    String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
    if (w != null && w.getReason() != null) {
      return "never started: " + w.getReason();
    }
    if (p.getSpec().getNodeName() == null) {
      return "never scheduled" + (phase == null ? "" : " (" + phase + ")");
    }
    return "never started" + (phase == null ? "" : " (" + phase + ")");
  }

  private static PodRecord record(Pod p, Map<String, String> logs) {
    Map<String, Integer> codes = new LinkedHashMap<>();
    if (p.getStatus() != null) {
      for (ContainerStatus s : p.getStatus().getContainerStatuses()) {
        if (s.getState() != null
            && s.getState().getTerminated() != null
            && s.getState().getTerminated().getExitCode() != null) {
          codes.put(s.getName(), s.getState().getTerminated().getExitCode());
        }
        if (s.getLastState() != null
            && s.getLastState().getTerminated() != null
            && s.getLastState().getTerminated().getExitCode() != null) {
          codes.put(s.getName() + " (previous)", s.getLastState().getTerminated().getExitCode());
        }
      }
    }
    String name = p.getMetadata().getName();
    String host =
        p.getSpec() == null || p.getSpec().getHostname() == null ? name : p.getSpec().getHostname();
    return new PodRecord(
        name,
        host,
        p.getSpec() == null ? null : p.getSpec().getNodeName(),
        p.getStatus() == null ? null : p.getStatus().getPhase(),
        logs == null ? Map.of() : logs,
        codes,
        null,
        PodRecord.efaRequested(p));
  }
}
