package io.topolens.lab.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.topolens.diagnose.Finding;
import io.topolens.kube.collect.JobCollector;
import io.topolens.kube.run.Cleanup;
import io.topolens.kube.run.ClusterProblems;
import io.topolens.kube.run.JobRunner;
import io.topolens.kube.run.PodRecord;
import io.topolens.kube.run.RunOptions;
import io.topolens.kube.run.RunOutcome;
import io.topolens.kube.run.Submission;
import io.topolens.lab.experiment.ExperimentSpec;
import io.topolens.lab.experiment.Variant;
import io.topolens.lab.experiment.VariantRunner;
import io.topolens.model.Cluster;
import io.topolens.model.NodeFacts;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Runs variants on a Kubernetes cluster, one job at a time: for each phase (the probe, then the
 * training command) the job {@link VariantManifests} writes is linted (an error stops it before it
 * is applied), created with the probe's ConfigMap before it through kube's {@link JobRunner},
 * followed to its end with every pod's log streamed into {@code PHASE/}, and deleted with its
 * ConfigMap before anything else starts. Beside the logs: {@code manifests.yaml}, {@code lint.txt},
 * {@code nodes.txt} and {@code run.json} (from run), {@code node-types.txt} (each node's instance
 * type and zone) and {@code events.txt} (the events of the job and its pods).
 */
public final class KubernetesVariantRunner implements VariantRunner {
  private final ExperimentSpec spec;
  private final KubernetesClient client;
  private final VariantManifests manifests;
  private final ClusterSettings settings;
  private final String namespace;
  private final Object lock = new Object();
  private volatile Thread running;
  private volatile boolean stopped;

  /**
   * @param namespace where the jobs go (null: the kubeconfig context's)
   */
  public KubernetesVariantRunner(
      ExperimentSpec spec,
      KubernetesClient client,
      VariantManifests manifests,
      String namespace,
      ClusterSettings settings) {
    this.spec = spec;
    this.client = client;
    this.manifests = manifests;
    this.namespace = namespace;
    this.settings = settings;
  }

  /**
   * Reads the namespace's ConfigMaps once, so that a cluster that cannot be reached or refuses
   * stops the experiment before its first variant rather than failing every one.
   */
  public void reach() throws InputProblem {
    try {
      var cms = client.configMaps();
      (namespace == null ? cms : cms.inNamespace(namespace)).list();
    } catch (KubernetesClientException e) {
      throw ClusterProblems.of(
          e,
          "list ConfigMaps" + (namespace == null ? "" : " in namespace " + namespace),
          io.topolens.kube.run.KubeClients.server(client),
          null);
    }
  }

  @Override
  public Optional<String> skipReason(Variant v) {
    return manifests.cannot(v);
  }

  @Override
  public VariantRun run(Variant v, Path dir, Consumer<String> progress) throws IOException {
    long start = System.nanoTime();
    List<Path> logs = new ArrayList<>();
    // the pods and nodes of the phases that ran, for the diagnosis
    Map<String, NodeFacts> nodes = new TreeMap<>();
    List<Cluster.PodRequest> pods = new ArrayList<>();
    for (Phase phase : manifests.phases()) {
      Path out = dir.resolve(phase.label());
      Files.createDirectories(out);
      VariantJob job;
      try {
        job = manifests.job(v, phase);
      } catch (InputProblem e) {
        return new VariantRun(phase.label() + ": " + e.getMessage(), logs, v.ranks());
      }
      Files.writeString(out.resolve("manifests.yaml"), job.yaml(), StandardCharsets.UTF_8);
      LintText.write(job, out.resolve("lint.txt"));
      if (!job.blocking().isEmpty()) {
        return new VariantRun(
            phase.label() + ": not applied, lint found " + LintText.summary(job.blocking()),
            logs,
            v.ranks());
      }
      if (stopped) {
        return new VariantRun("stopped", logs, v.ranks());
      }
      progress.accept(
          phase.label() + ": " + job.name() + " (" + v.ranks() + " ranks) applied, waiting");
      RunOutcome o;
      try {
        o = apply(job, out, remaining(start), progress);
      } catch (InputProblem e) {
        return new VariantRun(phase.label() + ": " + e.getMessage(), logs, v.ranks());
      } catch (InterruptedException e) {
        return new VariantRun("stopped", logs, v.ranks());
      }
      nodes.putAll(nodeTypes(o.pods(), out));
      o.pods().forEach(p -> pods.add(new Cluster.PodRequest(p.name(), p.node(), p.efa())));
      events(job.name(), o.pods(), out);
      logs.addAll(logFiles(out));
      if (o.status() != RunOutcome.Status.SUCCEEDED) {
        return new VariantRun(
            phase.label() + ": " + failure(o),
            logs,
            v.ranks(),
            new Cluster(List.copyOf(nodes.values()), pods));
      }
    }
    return new VariantRun(null, logs, v.ranks(), new Cluster(List.copyOf(nodes.values()), pods));
  }

  private RunOutcome apply(VariantJob job, Path out, Duration timeout, Consumer<String> progress)
      throws InputProblem, IOException, InterruptedException {
    // InterruptedException: stop() came before the job was created; nothing to delete
    Submission s = Submission.of(job.documents());
    RunOptions o =
        new RunOptions(
            namespace,
            timeout,
            settings.poll(),
            Cleanup.DELETE,
            Cleanup.DELETE,
            true,
            out,
            settings.pendingTimeout());
    synchronized (lock) {
      if (stopped) {
        throw new InterruptedException("stopped");
      }
      running = Thread.currentThread();
    }
    try {
      return new JobRunner(client, progress::accept).run(s, o);
    } finally {
      synchronized (lock) {
        running = null;
        Thread.interrupted(); // a stop() that came as the job ended
        lock.notifyAll();
      }
    }
  }

  /** One line for results.json: how the job ended, and the first pod problem when it says why. */
  private static String failure(RunOutcome o) {
    String m = o.message();
    for (PodRecord p : o.pods()) {
      if (p.problem() != null && !m.contains(p.problem())) {
        return m + " (pod " + p.name() + ": " + p.problem() + ")";
      }
    }
    for (PodRecord p : o.pods()) {
      for (var e : p.exitCodes().entrySet()) {
        if (e.getValue() != 0) {
          return m
              + " (pod "
              + p.name()
              + " container "
              + e.getKey()
              + " exit "
              + e.getValue()
              + ")";
        }
      }
    }
    return m;
  }

  private Duration remaining(long start) {
    Duration left = spec.timeout().minus(Duration.ofNanos(System.nanoTime() - start));
    return left.isNegative() ? Duration.ofSeconds(1) : left;
  }

  /**
   * {@code node-types.txt}: every node the pods ran on, its instance type and zone; the nodes as
   * they describe themselves, by name.
   */
  private Map<String, NodeFacts> nodeTypes(List<PodRecord> pods, Path out) throws IOException {
    Set<String> names = new LinkedHashSet<>();
    pods.stream().map(PodRecord::node).filter(n -> n != null).sorted().forEach(names::add);
    Map<String, NodeFacts> facts = new TreeMap<>();
    if (names.isEmpty()) {
      return facts;
    }
    StringBuilder sb = new StringBuilder("# node, its instance type and zone (node labels)\n");
    for (String n : names) {
      NodeFacts f = NodeFacts.unknown(n);
      try {
        Node node = client.nodes().withName(n).get();
        if (node != null) {
          f = JobCollector.facts(node);
        }
      } catch (KubernetesClientException e) {
        sb.append("# cannot get node ").append(n).append(": ").append(e.getCode()).append('\n');
      }
      facts.put(n, f);
      sb.append(n)
          .append(' ')
          .append(f.instanceType() == null ? "?" : f.instanceType())
          .append(' ')
          .append(f.zone() == null ? "?" : f.zone())
          .append('\n');
    }
    Files.writeString(out.resolve("node-types.txt"), sb.toString(), StandardCharsets.UTF_8);
    return facts;
  }

  /** {@code events.txt}: the events of the job, what it made and its pods, oldest first. */
  private void events(String job, List<PodRecord> pods, Path out) throws IOException {
    Set<String> names = new LinkedHashSet<>();
    pods.forEach(p -> names.add(p.name()));
    List<Event> mine = new ArrayList<>();
    try {
      var list = client.v1().events();
      var items = (namespace == null ? list : list.inNamespace(namespace)).list().getItems();
      for (Event e : items) {
        String obj = e.getInvolvedObject() == null ? "" : e.getInvolvedObject().getName();
        if (obj != null && (names.contains(obj) || obj.startsWith(job))) {
          mine.add(e);
        }
      }
    } catch (KubernetesClientException e) {
      Files.writeString(
          out.resolve("events.txt"),
          "# cannot list events: " + e.getCode() + " (the role needs list on events)\n",
          StandardCharsets.UTF_8);
      return;
    }
    mine.sort(Comparator.comparing(KubernetesVariantRunner::when));
    StringBuilder sb = new StringBuilder();
    for (Event e : mine) {
      sb.append(when(e))
          .append(' ')
          .append(e.getType())
          .append(' ')
          .append(e.getReason())
          .append(' ')
          .append(e.getInvolvedObject().getKind())
          .append('/')
          .append(e.getInvolvedObject().getName())
          .append(": ")
          .append(e.getMessage() == null ? "" : e.getMessage().strip())
          .append('\n');
    }
    Files.writeString(out.resolve("events.txt"), sb.toString(), StandardCharsets.UTF_8);
  }

  private static String when(Event e) {
    String t = e.getLastTimestamp();
    if (t == null) {
      t = e.getEventTime() == null ? null : e.getEventTime().getTime();
    }
    if (t == null) {
      t = e.getMetadata().getCreationTimestamp();
    }
    return t == null ? "-" : t;
  }

  private static List<Path> logFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
    }
  }

  /** Ctrl-C: interrupts the job being followed; run deletes it and its ConfigMap, then returns. */
  @Override
  public void stop() {
    synchronized (lock) {
      stopped = true;
      Thread t = running;
      if (t == null) {
        return;
      }
      t.interrupt();
      long until = System.nanoTime() + 60_000_000_000L;
      while (running != null && System.nanoTime() < until) {
        try {
          lock.wait(1000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Lint's findings in {@code lint.txt}, one a line with their evidence. */
  static final class LintText {
    private LintText() {}

    static void write(VariantJob job, Path file) throws IOException {
      StringBuilder sb = new StringBuilder();
      sb.append("# topolens lint of ").append(job.name()).append(": ");
      sb.append(job.findings().isEmpty() ? "no findings" : summary(job.findings())).append('\n');
      for (Finding f : job.findings()) {
        sb.append(f.severity().label().toUpperCase(java.util.Locale.ROOT))
            .append(' ')
            .append(f.id())
            .append(": ")
            .append(f.title())
            .append(
                job.blocking().contains(f)
                    ? ""
                    : f.severity() == io.topolens.diagnose.Severity.ERROR
                        ? " (asked for by the variant; not blocking)"
                        : "")
            .append('\n');
        f.evidence().forEach(ev -> sb.append("  ").append(ev).append('\n'));
        sb.append("  fix  ").append(f.fix()).append('\n');
      }
      Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
    }

    /** {@code 1 error: efa-count (TITLE)}, the findings by id. */
    static String summary(List<Finding> findings) {
      List<String> parts = new ArrayList<>();
      for (Finding f : findings) {
        parts.add(f.severity().label() + " " + f.id() + " (" + f.title() + ")");
      }
      return String.join("; ", parts);
    }
  }
}
