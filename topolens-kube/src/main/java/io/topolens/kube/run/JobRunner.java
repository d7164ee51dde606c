package io.topolens.kube.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Runs a job on Kubernetes with the fabric8 client: creates its documents, follows the job's status
 * and its pods (where each was scheduled, its phase, why it cannot start), streams every
 * container's log into a file as it runs, and when the job ends, times out or is interrupted,
 * records the pod-to-node map and run.json, then keeps or deletes the job as the options say.
 * Partial logs stay on disk whatever happens. Not thread-safe: one run per instance.
 */
public final class JobRunner {
  /** Consecutive failed polls after which the run gives up on the cluster. */
  static final int MAX_POLL_FAILURES = 5;

  private final KubernetesClient client;
  private final RunListener listener;
  private final KubernetesSerialization json;

  public JobRunner(KubernetesClient client, RunListener listener) {
    this.client = client;
    this.listener = listener;
    this.json = client.getKubernetesSerialization();
  }

  /**
   * Runs {@code s}; a cluster that cannot be reached, a forbidden namespace or a missing CRD is an
   * {@link InputProblem} (nothing is left behind); what happens after the job exists is in the
   * outcome.
   */
  public RunOutcome run(Submission s, RunOptions o) throws InputProblem, IOException {
    String ns = namespace(s, o);
    Files.createDirectories(o.logDir());
    List<Created> created = create(s, ns);
    String label = s.kind().kind() + " " + s.name();
    listener.progress("created " + label + " in namespace " + ns + " (" + server() + ")");
    Map<String, Tracked> pods = new LinkedHashMap<>();
    long start = System.nanoTime();
    long deadline = o.timeout() == null ? Long.MAX_VALUE : start + o.timeout().toNanos();
    RunOutcome.Status status = null;
    String ended = null;
    int failures = 0;
    while (status == null) {
      try {
        JobState state = jobState(s, ns);
        pollPods(s, ns, o.logDir(), pods);
        failures = 0;
        if (state.terminal() != null) {
          status = state.terminal();
          ended =
              label
                  + " "
                  + (status == RunOutcome.Status.SUCCEEDED ? "succeeded" : "failed")
                  + (state.reason() == null ? "" : ": " + state.reason());
          break;
        }
      } catch (KubernetesClientException e) {
        if (interrupted(e)) {
          status = RunOutcome.Status.INTERRUPTED;
          break;
        }
        if (++failures >= MAX_POLL_FAILURES) {
          status = RunOutcome.Status.FAILED;
          ended =
              "lost the cluster after "
                  + failures
                  + " failed reads: "
                  + ClusterProblems.firstLine(e.getMessage())
                  + "; "
                  + label
                  + " was left as it was";
          created.clear();
          break;
        }
      }
      if (System.nanoTime() > deadline) {
        status = RunOutcome.Status.TIMED_OUT;
        break;
      }
      if (o.pendingTimeout() != null
          && System.nanoTime() - start > o.pendingTimeout().toNanos()
          && (ended = stuck(pods)) != null) {
        status = RunOutcome.Status.PENDING;
        break;
      }
      try {
        Thread.sleep(o.poll().toMillis());
      } catch (InterruptedException e) {
        status = RunOutcome.Status.INTERRUPTED;
      }
    }
    Thread.interrupted(); // the run is over; clean up whatever interrupted it
    if (status == RunOutcome.Status.SUCCEEDED || status == RunOutcome.Status.FAILED) {
      try {
        pollPods(s, ns, o.logDir(), pods);
      } catch (KubernetesClientException e) {
        // keep what was seen
      }
      finishLogs(pods);
    } else {
      pods.values().forEach(t -> t.followers.values().forEach(LogFollower::close));
    }
    previousLogs(ns, o.logDir(), pods);
    String what =
        switch (status) {
          case INTERRUPTED ->
              "interrupted; " + cleanup(created, o.onInterrupt(), label, ns, "--on-interrupt");
          case PENDING ->
              label
                  + " "
                  + ended
                  + " after "
                  + seconds(o.pendingTimeout().toMillis())
                  + "; "
                  + cleanup(created, o.onTimeout(), label, ns, "--on-timeout");
          case TIMED_OUT ->
              "timed out after "
                  + seconds(o.timeout().toMillis())
                  + "; "
                  + cleanup(created, o.onTimeout(), label, ns, "--on-timeout");
          default ->
              ended
                  + (o.deleteWhenDone() && !created.isEmpty()
                      ? "; " + cleanup(created, Cleanup.DELETE, label, ns, null)
                      : "");
        };
    List<PodRecord> records = pods.values().stream().map(Tracked::record).toList();
    Path nodes = RunRecords.nodeMap(o.logDir(), records);
    RunRecords.json(o.logDir(), s, ns, status, what, records);
    listener.progress(what);
    for (var e : PodRecord.shared(records).entrySet()) {
      listener.progress("pods sharing node " + e.getKey() + ": " + String.join(", ", e.getValue()));
    }
    return new RunOutcome(status, what, records, o.logDir(), nodes);
  }

  private String namespace(Submission s, RunOptions o) {
    if (o.namespace() != null) {
      return o.namespace();
    }
    String inDoc = s.job().path("metadata").path("namespace").asText(null);
    if (inDoc != null) {
      return inDoc;
    }
    return KubeClients.contextNamespace(client);
  }

  private String server() {
    return KubeClients.server(client);
  }

  /** A document topolens created, to delete later. */
  private record Created(JsonNode doc, RunKind kind, String namespace) {
    String label() {
      return doc.path("kind").asText() + " " + doc.path("metadata").path("name").asText();
    }
  }

  private List<Created> create(Submission s, String ns) throws InputProblem {
    List<Created> created = new ArrayList<>();
    for (JsonNode doc : s.documents()) {
      String api = doc.path("apiVersion").asText();
      String kind = doc.path("kind").asText();
      String name = doc.path("metadata").path("name").asText();
      Optional<RunKind> rk = RunKind.known(api, kind);
      boolean isJob = doc == s.job();
      String where = rk.map(RunKind::namespaced).orElse(true) ? " in namespace " + ns : "";
      try {
        if (rk.isPresent()) {
          GenericKubernetesResource r = json.convertValue(doc, GenericKubernetesResource.class);
          var op = client.genericKubernetesResources(rk.get().context());
          if (rk.get().namespaced()) {
            r.getMetadata().setNamespace(ns);
            op.inNamespace(ns).resource(r).create();
          } else {
            op.resource(r).create();
          }
        } else {
          HasMetadata r = json.unmarshal(json.asJson(doc));
          r.getMetadata().setNamespace(ns);
          client.resource(r).inNamespace(ns).create();
        }
        created.add(new Created(doc, rk.orElse(null), ns));
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409 && !isJob) {
          listener.progress(kind + " " + name + " already exists; using it");
          continue;
        }
        InputProblem p =
            ClusterProblems.of(e, "create " + kind + " " + name + where, server(), rk.orElse(null));
        cleanup(created, Cleanup.DELETE, kind + " " + name, ns, null);
        throw p;
      } catch (IllegalArgumentException e) {
        cleanup(created, Cleanup.DELETE, kind + " " + name, ns, null);
        throw new InputProblem(
            "cannot create "
                + kind
                + " "
                + name
                + ": "
                + ClusterProblems.firstLine(e.getMessage()));
      }
    }
    return created;
  }

  /** The job's terminal state, if it has one, from its status conditions. */
  private record JobState(RunOutcome.Status terminal, String reason) {}

  private JobState jobState(Submission s, String ns) {
    GenericKubernetesResource r =
        client
            .genericKubernetesResources(s.kind().context())
            .inNamespace(ns)
            .withName(s.name())
            .get();
    if (r == null) {
      return new JobState(RunOutcome.Status.FAILED, "it was deleted");
    }
    JsonNode status = json.convertValue(r.getAdditionalProperties().get("status"), JsonNode.class);
    if (status == null) {
      return new JobState(null, null);
    }
    for (JsonNode c : status.path("conditions")) {
      if (!"True".equals(c.path("status").asText())) {
        continue;
      }
      String type = c.path("type").asText();
      String why = c.path("message").asText(c.path("reason").asText(""));
      if (s.kind().failed().contains(type)) {
        return new JobState(RunOutcome.Status.FAILED, why.isEmpty() ? null : why);
      }
      if (s.kind().succeeded().contains(type)) {
        return new JobState(RunOutcome.Status.SUCCEEDED, null);
      }
    }
    return new JobState(null, null);
  }

  /** One pod as the run follows it. */
  private static final class Tracked {
    final String name;
    String hostname;
    String node;
    String phase;
    String problem;
    int efa;
    final Map<String, LogFollower> followers = new LinkedHashMap<>();
    final Map<String, String> logs = new LinkedHashMap<>();
    final Map<String, Integer> exitCodes = new LinkedHashMap<>();
    final Map<String, Integer> restarts = new LinkedHashMap<>();

    Tracked(String name) {
      this.name = name;
    }

    PodRecord record() {
      return new PodRecord(
          name, hostname == null ? name : hostname, node, phase, logs, exitCodes, problem, efa);
    }
  }

  private void pollPods(Submission s, String ns, Path dir, Map<String, Tracked> pods)
      throws IOException {
    List<Pod> list =
        client.pods().inNamespace(ns).withLabel(s.kind().podLabel(), s.name()).list().getItems();
    for (Pod p : list) {
      String name = p.getMetadata().getName();
      Tracked t = pods.computeIfAbsent(name, Tracked::new);
      if (t.hostname == null && p.getSpec() != null) {
        t.hostname = p.getSpec().getHostname() != null ? p.getSpec().getHostname() : name;
        t.efa = PodRecord.efaRequested(p);
      }
      String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
      if (node != null && !node.equals(t.node)) {
        t.node = node;
        listener.progress("pod " + name + " scheduled on node " + node);
      }
      String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
      if (phase != null && !phase.equals(t.phase)) {
        t.phase = phase;
        listener.progress("pod " + name + ": " + phase);
      }
      String problem = problem(p);
      if (problem != null && !problem.equals(t.problem)) {
        t.problem = problem;
        listener.progress("pod " + name + ": " + problem);
      }
      follow(ns, dir, p, t);
    }
  }

  /**
   * Why the job has not started, when it has not: no pod yet, or a pod that is still pending
   * without a node or with a reason it cannot start; null once every pod is scheduled and starting.
   */
  private static String stuck(Map<String, Tracked> pods) {
    if (pods.isEmpty()) {
      return "not started: no pod was created";
    }
    List<String> why = new ArrayList<>();
    for (Tracked t : pods.values()) {
      boolean pending = t.phase == null || t.phase.equals("Pending");
      if (pending && (t.node == null || t.problem != null)) {
        why.add(
            "pod "
                + t.name
                + " "
                + (t.problem != null ? t.problem : "not scheduled (no reason given yet)"));
      }
    }
    return why.isEmpty() ? null : "not started: " + String.join("; ", why);
  }

  private static String problem(Pod p) {
    if (p.getStatus() == null) {
      return null;
    }
    for (PodCondition c : p.getStatus().getConditions()) {
      if ("PodScheduled".equals(c.getType())
          && "False".equals(c.getStatus())
          && c.getReason() != null) {
        return c.getReason() + (c.getMessage() == null ? "" : ": " + c.getMessage());
      }
    }
    for (ContainerStatus cs : p.getStatus().getContainerStatuses()) {
      var w = cs.getState() == null ? null : cs.getState().getWaiting();
      if (w != null
          && w.getReason() != null
          && !w.getReason().equals("ContainerCreating")
          && !w.getReason().equals("PodInitializing")) {
        return "container "
            + cs.getName()
            + ": "
            + w.getReason()
            + (w.getMessage() == null ? "" : ": " + ClusterProblems.firstLine(w.getMessage()));
      }
    }
    return null;
  }

  private void follow(String ns, Path dir, Pod p, Tracked t) throws IOException {
    if (p.getStatus() == null || p.getSpec() == null) {
      return;
    }
    int containers = p.getSpec().getContainers().size();
    for (ContainerStatus cs : p.getStatus().getContainerStatuses()) {
      var state = cs.getState();
      if (state == null || (state.getRunning() == null && state.getTerminated() == null)) {
        continue;
      }
      if (cs.getRestartCount() != null && cs.getRestartCount() > 0) {
        t.restarts.put(cs.getName(), cs.getRestartCount());
      }
      if (state.getTerminated() != null && state.getTerminated().getExitCode() != null) {
        t.exitCodes.put(cs.getName(), state.getTerminated().getExitCode());
      }
      if (state.getRunning() != null && t.followers.containsKey(cs.getName())) {
        t.followers.get(cs.getName()).containerStillRunning();
      }
      if (!t.followers.containsKey(cs.getName())) {
        String file = containers == 1 ? t.name + ".log" : t.name + "." + cs.getName() + ".log";
        LogFollower f = new LogFollower(client, ns, t.name, cs.getName(), dir.resolve(file));
        t.followers.put(cs.getName(), f);
        t.logs.put(cs.getName(), file);
        f.start();
      }
    }
  }

  /** After the job ended: let streams finish, and fetch whole logs where a stream broke. */
  private void finishLogs(Map<String, Tracked> pods) {
    long until = System.nanoTime() + 30_000_000_000L;
    for (Tracked t : pods.values()) {
      for (var e : t.followers.entrySet()) {
        LogFollower f = e.getValue();
        try {
          f.awaitEnd(Math.max(0, (until - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          break;
        }
        // Always compare with the whole log once the container has ended: a stream can also end
        // cleanly and still miss lines (a dropped connection that looks like an end, log rotation),
        // and whether it ended before or after the pod did is a race. complete() rewrites the file
        // only when the whole log is longer than what the stream wrote.
        if (f.complete()) {
          listener.progress(
              "log of "
                  + t.name
                  + "/"
                  + e.getKey()
                  + " fetched whole after its stream "
                  + (f.ended() ? "broke" : "stalled"));
        }
        f.close();
      }
    }
  }

  /**
   * The log of the previous attempt of every container that restarted ({@code kubectl logs
   * --previous}), as {@code POD[.CONTAINER].previous.log}: the attempt that failed first is often
   * the one that says why.
   */
  private void previousLogs(String ns, Path dir, Map<String, Tracked> pods) {
    for (Tracked t : pods.values()) {
      for (var e : t.restarts.entrySet()) {
        String c = e.getKey();
        String current = t.logs.get(c);
        String file =
            (current == null ? t.name + "." + c + ".log" : current).replaceFirst("\\.log$", "")
                + ".previous.log";
        try {
          String log =
              client.pods().inNamespace(ns).withName(t.name).inContainer(c).terminated().getLog();
          if (log != null) {
            Files.writeString(dir.resolve(file), log, java.nio.charset.StandardCharsets.UTF_8);
            t.logs.put(c + " (previous)", file);
            listener.progress(
                "log of "
                    + t.name
                    + "/"
                    + c
                    + " before its restart ("
                    + e.getValue()
                    + " restart(s)) in "
                    + file);
          }
        } catch (KubernetesClientException | IOException ex) {
          listener.progress(
              "no log of "
                  + t.name
                  + "/"
                  + c
                  + " before its restart: "
                  + ClusterProblems.firstLine(ex.getMessage()));
        }
      }
    }
  }

  private String cleanup(
      List<Created> created, Cleanup what, String label, String ns, String option) {
    if (created.isEmpty()) {
      return label + " was not created by this run; left as it was";
    }
    if (what == Cleanup.KEEP) {
      Created job = created.get(created.size() - 1);
      return "kept "
          + label
          + " (delete it with: kubectl delete "
          + job.doc().path("kind").asText().toLowerCase(Locale.ROOT)
          + " "
          + job.doc().path("metadata").path("name").asText()
          + " -n "
          + ns
          + ")";
    }
    List<String> gone = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    for (int i = created.size() - 1; i >= 0; i--) {
      Created c = created.get(i);
      try {
        if (c.kind() != null) {
          var op = client.genericKubernetesResources(c.kind().context());
          (c.kind().namespaced() ? op.inNamespace(c.namespace()) : op)
              .withName(c.doc().path("metadata").path("name").asText())
              .delete();
        } else {
          HasMetadata r = json.unmarshal(json.asJson(c.doc()));
          client.resource(r).inNamespace(c.namespace()).delete();
        }
        gone.add(c.label());
      } catch (KubernetesClientException e) {
        failed.add(c.label() + " (" + ClusterProblems.firstLine(e.getMessage()) + ")");
      }
    }
    return "deleted "
        + String.join(", ", gone)
        + (failed.isEmpty() ? "" : "; could not delete " + String.join(", ", failed))
        + (option == null ? "" : " (" + option + " keep keeps it)");
  }

  private static boolean interrupted(Throwable e) {
    if (Thread.currentThread().isInterrupted()) {
      return true;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InterruptedException) {
        return true;
      }
    }
    return false;
  }

  private static String seconds(long millis) {
    return millis % 1000 == 0
        ? millis / 1000 + " s"
        : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }
}
