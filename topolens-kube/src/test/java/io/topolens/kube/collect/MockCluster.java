package io.topolens.kube.collect;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.topolens.kube.run.RunKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cluster in fabric8's mock API server (CRUD mode): nodes with an instance type and allocatable
 * GPUs and EFA, jobs, their pods as the operator and the kubelet leave them, and pod logs served as
 * expectations (CRUD mode has no logs). Objects are created or else updated: on a loaded machine a
 * create that timed out is retried by the client and would find its first attempt.
 */
final class MockCluster {
  final KubernetesMockServer server;
  final KubernetesClient client;
  final String ns;

  MockCluster(KubernetesMockServer server, KubernetesClient client, String ns) {
    this.server = server;
    this.client = client;
    this.ns = ns;
  }

  void node(String name, String instanceType, int gpus, int efa) {
    Map<String, Quantity> alloc = new LinkedHashMap<>();
    alloc.put("cpu", new Quantity("47"));
    if (gpus > 0) {
      alloc.put("nvidia.com/gpu", new Quantity(String.valueOf(gpus)));
    }
    if (efa > 0) {
      alloc.put("vpc.amazonaws.com/efa", new Quantity(String.valueOf(efa)));
    }
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("node.kubernetes.io/instance-type", instanceType)
                .endMetadata()
                .withNewStatus()
                .withAllocatable(alloc)
                .endStatus()
                .build())
        .createOr(NonDeletingOperation::update);
  }

  /** A job object of {@code kind} with {@code spec}. */
  void job(RunKind kind, String name, Map<String, Object> spec) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion(kind.apiVersion());
    r.setKind(kind.kind());
    r.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName(name)
            .withNamespace(kind.namespaced() ? ns : null)
            .build());
    r.setAdditionalProperty("spec", spec);
    r.setAdditionalProperty(
        "status", Map.of("conditions", List.of(Map.of("type", "Failed", "status", "True"))));
    (kind.namespaced()
            ? client.genericKubernetesResources(kind.context()).inNamespace(ns)
            : client.genericKubernetesResources(kind.context()))
        .resource(r)
        .createOr(NonDeletingOperation::update);
  }

  /**
   * A pod of a job: on {@code node} (null: never scheduled), its containers in {@code phase}
   * (Running, Succeeded, Failed, Pending), each restarted {@code restarts} times.
   */
  void pod(
      String name,
      String hostname,
      String node,
      Map<String, String> labels,
      List<String> containers,
      String phase,
      int restarts) {
    PodBuilder b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(ns)
            .withLabels(labels)
            .endMetadata()
            .withNewSpec()
            .withHostname(hostname)
            .withNodeName(node)
            .endSpec();
    for (String c : containers) {
      b.editSpec()
          .addToContainers(new ContainerBuilder().withName(c).withImage("img").build())
          .endSpec();
    }
    List<ContainerStatus> cs = new ArrayList<>();
    for (String c : containers) {
      ContainerStatusBuilder s =
          new ContainerStatusBuilder().withName(c).withRestartCount(restarts);
      switch (phase) {
        case "Running" -> s.withNewState().withNewRunning().endRunning().endState();
        case "Pending" ->
            s.withNewState()
                .withNewWaiting()
                .withReason("ImagePullBackOff")
                .endWaiting()
                .endState();
        default ->
            s.withNewState()
                .withNewTerminated()
                .withExitCode(phase.equals("Succeeded") ? 0 : 1)
                .endTerminated()
                .endState();
      }
      if (restarts > 0) {
        s.withNewLastState().withNewTerminated().withExitCode(137).endTerminated().endLastState();
      }
      cs.add(s.build());
    }
    Pod p =
        b.withStatus(new PodStatusBuilder().withPhase(phase).withContainerStatuses(cs).build())
            .build();
    client.pods().inNamespace(ns).resource(p).createOr(NonDeletingOperation::update);
  }

  static String logPath(String ns, String pod, String container, boolean previous) {
    return "/api/v1/namespaces/"
        + ns
        + "/pods/"
        + pod
        + "/log?pretty=false&container="
        + container
        + (previous ? "&previous=true" : "");
  }

  void log(String pod, String container, boolean previous, String body) {
    server
        .expect()
        .get()
        .withPath(logPath(ns, pod, container, previous))
        .andReturn(200, body)
        .always();
  }

  /** The API server's answer for a log it cannot give (the pod's node is gone, and so on). */
  void refuseLog(String pod, String container, boolean previous, int code, String message) {
    server
        .expect()
        .get()
        .withPath(logPath(ns, pod, container, previous))
        .andReturn(
            code,
            new StatusBuilder()
                .withStatus("Failure")
                .withCode(code)
                .withMessage(message)
                .withReason(code == 403 ? "Forbidden" : "NotFound")
                .build())
        .always();
  }
}
