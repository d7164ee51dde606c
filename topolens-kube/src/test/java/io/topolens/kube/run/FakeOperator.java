package io.topolens.kube.run;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Plays the operator and the kubelet against the mock API server: creates the job's pods with the
 * labels and hostnames the real operators give them, schedules them, runs them, ends them, and sets
 * the job's status conditions.
 */
final class FakeOperator {
  private final KubernetesClient client;
  private final String ns;
  private final RunKind kind;
  private final String job;

  FakeOperator(KubernetesClient client, String ns, RunKind kind, String job) {
    this.client = client;
    this.ns = ns;
    this.kind = kind;
    this.job = job;
  }

  /** Waits until the runner created the job. */
  void awaitJob() throws InterruptedException {
    for (int i = 0; i < 200; i++) {
      if (client.genericKubernetesResources(kind.context()).inNamespace(ns).withName(job).get()
          != null) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the job was never created");
  }

  /** Creates a pod of the job: name, hostname (or null), node (or null), container names. */
  void pod(String name, String hostname, String node, String... containers) {
    PodBuilder b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(ns)
            .withLabels(Map.of(kind.podLabel(), job))
            .endMetadata()
            .withNewSpec()
            .withHostname(hostname)
            .withNodeName(node)
            .endSpec();
    Pod p = b.build();
    for (String c : containers) {
      p.getSpec()
          .getContainers()
          .add(
              new io.fabric8.kubernetes.api.model.ContainerBuilder()
                  .withName(c)
                  .withImage("img")
                  .build());
    }
    client.pods().inNamespace(ns).resource(p).create();
  }

  /**
   * Sets a pod's phase; running or terminated containers with the exit code (null while running).
   */
  void phase(String name, String phase, Integer exitCode) {
    Pod p = client.pods().inNamespace(ns).withName(name).get();
    List<ContainerStatus> cs = new ArrayList<>();
    for (var c : p.getSpec().getContainers()) {
      ContainerStatusBuilder s = new ContainerStatusBuilder().withName(c.getName());
      if (exitCode == null) {
        s.withNewState()
            .withNewRunning()
            .withStartedAt("2026-11-21T00:00:00Z")
            .endRunning()
            .endState();
      } else {
        s.withNewState()
            .withNewTerminated()
            .withExitCode(exitCode)
            .withReason(exitCode == 0 ? "Completed" : "Error")
            .endTerminated()
            .endState();
      }
      cs.add(s.build());
    }
    p.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder()
            .withPhase(phase)
            .withContainerStatuses(cs)
            .build());
    client.pods().inNamespace(ns).resource(p).update();
  }

  /** Records that every container of a pod restarted {@code n} times, as the kubelet counts. */
  void restarted(String name, int n) {
    Pod p = client.pods().inNamespace(ns).withName(name).get();
    p.getStatus().getContainerStatuses().forEach(c -> c.setRestartCount(n));
    client.pods().inNamespace(ns).resource(p).update();
  }

  /** Marks a pod unschedulable, as the scheduler does. */
  void unschedulable(String name, String message) {
    Pod p = client.pods().inNamespace(ns).withName(name).get();
    p.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder()
            .withPhase("Pending")
            .addNewCondition()
            .withType("PodScheduled")
            .withStatus("False")
            .withReason("Unschedulable")
            .withMessage(message)
            .endCondition()
            .build());
    client.pods().inNamespace(ns).resource(p).update();
  }

  /** Sets the job's status to one True condition of {@code type}. */
  void condition(String type, String message) {
    GenericKubernetesResource r =
        client.genericKubernetesResources(kind.context()).inNamespace(ns).withName(job).get();
    r.getAdditionalProperties()
        .put(
            "status",
            Map.of(
                "conditions",
                List.of(
                    Map.of("type", "Created", "status", "True"),
                    Map.of("type", type, "status", "True", "message", message))));
    client.genericKubernetesResources(kind.context()).inNamespace(ns).resource(r).update();
  }

  boolean jobExists() {
    return client.genericKubernetesResources(kind.context()).inNamespace(ns).withName(job).get()
        != null;
  }
}
