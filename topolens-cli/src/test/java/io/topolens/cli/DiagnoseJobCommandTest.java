package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code topolens diagnose --job} end to end against fabric8's mock API server (CRUD mode) through
 * a kubeconfig whose context names namespace ml: AWS's FSDP PyTorchJob (examples/k8s/lint) with two
 * pods on two p4d.24xlarge nodes, whose logs are a public two-node NCCL log split by host (core
 * test resources nccl/public/008, NVIDIA/nccl#687).
 */
@EnableKubernetesMockClient(crud = true)
class DiagnoseJobCommandTest {
  static final ResourceDefinitionContext PYTORCHJOB =
      new ResourceDefinitionContext.Builder()
          .withGroup("kubeflow.org")
          .withVersion("v1")
          .withKind("PyTorchJob")
          .withPlural("pytorchjobs")
          .withNamespaced(true)
          .build();
  static final Path TWO_NODES =
      Path.of(CliRun.fixture("nccl/public/008-nccl2x-ib-gdrdma-p2p-ipc-read-two-nodes.log"));

  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path tmp;
  Path kubeconfig;

  @BeforeEach
  void cluster(TestInfo test) throws Exception {
    // the EFA test's cluster: the second node without the EFA device plugin, pods asking none
    boolean noEfa = test.getTestMethod().orElseThrow().getName().startsWith("aClusterWithoutEfa");
    // the mesh test's pods: Istio's proxy injected beside the training container
    boolean mesh = test.getTestMethod().orElseThrow().getName().startsWith("aMeshSidecar");
    kubeconfig = tmp.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: mock
          cluster: {server: "%s", insecure-skip-tls-verify: true}
        contexts:
        - name: mock
          context: {cluster: mock, user: dev, namespace: ml}
        current-context: mock
        users:
        - name: dev
          user: {token: secret}
        """
            .formatted(client.getMasterUrl().toString().replaceAll("/$", "")));
    GenericKubernetesResource job =
        new ObjectMapper(new YAMLFactory())
            .readValue(
                Path.of(CliRun.example("lint/aws-fsdp-p4d.yaml")).toFile(),
                GenericKubernetesResource.class);
    client.genericKubernetesResources(PYTORCHJOB).inNamespace("ml").resource(job).create();
    List<String> hosts = List.of("cosmos-hpc-100a45", "cosmos-hpc-100a55");
    for (int i = 0; i < 2; i++) {
      String node = "ip-10-1-0-" + (i + 1);
      client
          .nodes()
          .resource(
              new NodeBuilder()
                  .withNewMetadata()
                  .withName(node)
                  .addToLabels("node.kubernetes.io/instance-type", "p4d.24xlarge")
                  .addToLabels("topology.kubernetes.io/zone", "us-east-1a")
                  .endMetadata()
                  .withNewStatus()
                  .withAllocatable(
                      noEfa && i == 1
                          ? Map.of("nvidia.com/gpu", new Quantity("8"))
                          : Map.of(
                              "nvidia.com/gpu", new Quantity("8"),
                              "vpc.amazonaws.com/efa", new Quantity("4")))
                  .endStatus()
                  .build())
          .create();
      String pod = "fsdp-worker-" + i;
      client
          .pods()
          .inNamespace("ml")
          .resource(
              new PodBuilder()
                  .withNewMetadata()
                  .withName(pod)
                  .withLabels(Map.of("training.kubeflow.org/job-name", "fsdp"))
                  .endMetadata()
                  .withNewSpec()
                  .withHostname(hosts.get(i))
                  .withNodeName(node)
                  .withContainers(
                      new ContainerBuilder()
                          .withName("pytorch")
                          .withImage("i")
                          .withNewResources()
                          .withLimits(
                              noEfa
                                  ? Map.of("nvidia.com/gpu", new Quantity("8"))
                                  : Map.of(
                                      "nvidia.com/gpu", new Quantity("8"),
                                      "vpc.amazonaws.com/efa", new Quantity("4")))
                          .endResources()
                          .build())
                  .addAllToContainers(
                      mesh
                          ? List.of(
                              new ContainerBuilder().withName("istio-proxy").withImage("p").build())
                          : List.of())
                  .endSpec()
                  .withStatus(
                      new PodStatusBuilder()
                          .withPhase("Succeeded")
                          .withContainerStatuses(
                              new ContainerStatusBuilder()
                                  .withName("pytorch")
                                  .withNewState()
                                  .withNewTerminated()
                                  .withExitCode(0)
                                  .endTerminated()
                                  .endState()
                                  .build())
                          .addAllToContainerStatuses(
                              mesh
                                  ? List.of(
                                      new ContainerStatusBuilder()
                                          .withName("istio-proxy")
                                          .withNewState()
                                          .withNewRunning()
                                          .endRunning()
                                          .endState()
                                          .build())
                                  : List.of())
                          .build())
                  .build())
          .create();
      String host = hosts.get(i);
      server
          .expect()
          .get()
          .withPath("/api/v1/namespaces/ml/pods/" + pod + "/log?pretty=false&container=pytorch")
          .andReturn(
              200,
              Files.readAllLines(TWO_NODES).stream()
                  .filter(l -> l.startsWith(host + ":"))
                  .map(l -> l + "\n")
                  .collect(Collectors.joining()))
          .always();
      server
          .expect()
          .get()
          .withPath("/api/v1/namespaces/ml/pods/" + pod + "/log?pretty=false&container=istio-proxy")
          .andReturn(200, "")
          .always();
    }
  }

  @Test
  void aMeshSidecarInThePodsIsAWarningLiveAndOffline() throws Exception {
    Path saved = tmp.resolve("saved");
    CliRun live = diagnoseFsdp("--format", "json", "--save", saved.toString());
    var mesh =
        new ObjectMapper()
            .readTree(live.out())
            .path("findings")
            .valueStream()
            .filter(f -> f.path("id").asText().equals("service-mesh-sidecar"))
            .toList();
    assertThat(mesh).hasSize(1);
    assertThat(mesh.getFirst().path("severity").asText()).isEqualTo("warn");
    assertThat(mesh.getFirst().path("evidence").valueStream().map(e -> e.path("file").asText()))
        .containsExactly("pod fsdp-worker-0", "pod fsdp-worker-1");
    assertThat(mesh.getFirst().path("evidence").get(0).path("text").asText())
        .isEqualTo("runs container istio-proxy");
    // the saved folder keeps the pods' containers; the logs alone do not show the proxy
    CliRun offline = CliRun.of("diagnose", "--format", "json", saved.toString());
    assertThat(offline.out()).isEqualTo(live.out());
    CliRun logsOnly = CliRun.of("diagnose", "--format", "json", saved.resolve("logs").toString());
    assertThat(ids(logsOnly.out())).doesNotContain("service-mesh-sidecar");
  }

  @Test
  void diagnosesTheJobSavesItAndRepeatsOfflineAndLintReadsTheSavedManifest() throws Exception {
    Path saved = tmp.resolve("saved");
    CliRun live = diagnoseFsdp("--parallel", "2", "--save", saved.toString());
    assertThat(live.errLines())
        .contains(
            "topolens: PyTorchJob fsdp in namespace ml: 2 pod(s) on 2 node(s): 2 x p4d.24xlarge (8 GPU, 4 EFA allocatable)",
            "topolens: saved in " + saved + " (topolens diagnose " + saved + " repeats this)");
    // the same as diagnosing the files by hand with the node map and the nodes' instance type
    CliRun byHand =
        CliRun.of(
            "diagnose",
            "--node-map",
            saved.resolve("nodes.txt").toString(),
            "--instance",
            "p4d.24xlarge",
            saved.resolve("logs").toString());
    assertThat(live.code()).isEqualTo(byHand.code());
    assertThat(live.out()).isEqualTo(byHand.out()).contains("2 node");
    CliRun offline = CliRun.of("diagnose", saved.toString());
    assertThat(offline.code()).isEqualTo(live.code());
    assertThat(offline.out()).isEqualTo(live.out());
    assertThat(offline.errLines())
        .first()
        .isEqualTo(
            "topolens: saved PyTorchJob fsdp in namespace ml: 2 pod(s), 2 log(s); nodes: 2 x p4d.24xlarge (8 GPU, 4 EFA allocatable)");
    // lint reads the saved manifest and finds what it finds in the original
    CliRun lintSaved =
        CliRun.of("lint", "--format", "json", saved.resolve("manifest.yaml").toString());
    CliRun lintOriginal =
        CliRun.of("lint", "--format", "json", CliRun.example("lint/aws-fsdp-p4d.yaml"));
    assertThat(lintSaved.code()).as(lintSaved.err()).isEqualTo(lintOriginal.code()).isNotEqualTo(2);
    assertThat(ids(lintSaved.out())).isEqualTo(ids(lintOriginal.out())).isNotEmpty();
  }

  @Test
  void aClusterWithoutEfaWhereTheNodesHaveItIsJudgedLiveAndOffline() throws Exception {
    Path saved = tmp.resolve("saved");
    CliRun live = diagnoseFsdp("--format", "json", "--save", saved.toString());
    assertThat(live.errLines())
        .contains(
            "topolens: PyTorchJob fsdp in namespace ml: 2 pod(s) on 2 node(s): 1 x p4d.24xlarge (8 GPU, 4 EFA allocatable), 1 x p4d.24xlarge (8 GPU, no EFA allocatable)");
    // the log's ranks talk over IB with GPUDirect RDMA, no sockets: warnings, not the cause
    assertThat(ids(live.out())).contains("efa-not-allocatable", "efa-not-requested");
    var findings = new ObjectMapper().readTree(live.out()).path("findings");
    var allocatable =
        findings
            .valueStream()
            .filter(f -> f.path("id").asText().equals("efa-not-allocatable"))
            .findFirst()
            .orElseThrow();
    assertThat(allocatable.path("severity").asText()).isEqualTo("warn");
    assertThat(allocatable.path("title").asText())
        .isEqualTo("1 node of an instance type with EFA allocates no EFA device");
    assertThat(allocatable.path("evidence").get(0).path("file").asText())
        .isEqualTo("node ip-10-1-0-2");
    assertThat(allocatable.path("evidence").get(0).path("text").asText())
        .isEqualTo(
            "instance-type p4d.24xlarge, allocatable nvidia.com/gpu 8, vpc.amazonaws.com/efa none,"
                + " zone us-east-1a");
    var requested =
        findings
            .valueStream()
            .filter(f -> f.path("id").asText().equals("efa-not-requested"))
            .findFirst()
            .orElseThrow();
    // the pod on the node that has EFA asked for none of its 4
    assertThat(requested.path("title").asText())
        .isEqualTo("1 pod on a node with EFA requests no EFA device");
    assertThat(requested.path("evidence").get(0).path("text").asText())
        .isEqualTo(
            "requests vpc.amazonaws.com/efa 0 on node ip-10-1-0-1 (p4d.24xlarge, 4 allocatable)");
    // the saved folder judges the same; the logs alone cannot
    CliRun offline = CliRun.of("diagnose", "--format", "json", saved.toString());
    assertThat(offline.out()).isEqualTo(live.out());
    CliRun logsOnly = CliRun.of("diagnose", "--format", "json", saved.resolve("logs").toString());
    assertThat(ids(logsOnly.out())).doesNotContain("efa-not-allocatable", "efa-not-requested");
  }

  /** {@code diagnose --job pytorchjob/fsdp} through the test's kubeconfig, with {@code more}. */
  private CliRun diagnoseFsdp(String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of("diagnose", "--job", "pytorchjob/fsdp", "--kubeconfig", kubeconfig.toString()));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  private static List<String> ids(String json) throws Exception {
    return new ObjectMapper()
        .readTree(json)
        .path("findings")
        .valueStream()
        .map(f -> f.path("id").asText())
        .toList();
  }

  @Test
  void aRefusalIsOneLineNamingTheVerbAndResourceAndExitsTwo() {
    server
        .expect()
        .get()
        .withPath("/api/v1/nodes/ip-10-1-0-2")
        .andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden").build())
        .always();
    CliRun r =
        CliRun.of("diagnose", "--job", "pytorchjob/fsdp", "--kubeconfig", kubeconfig.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .last()
        .isEqualTo(
            "topolens: forbidden (403): cannot get nodes; the role needs verb \"get\" on resource"
                + " \"nodes\" (examples/k8s/rbac/topolens-diagnose.yaml)");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void anotherNamespaceAsKubectlTakesIt() {
    CliRun r =
        CliRun.of(
            "diagnose",
            "--job",
            "pytorchjob/fsdp",
            "-n",
            "research",
            "--kubeconfig",
            kubeconfig.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "topolens: no PyTorchJob fsdp in namespace research (kubectl get pytorchjobs -n research)");
  }

  @Test
  void optionsThatDoNotGoTogether() {
    assertThat(CliRun.of("diagnose").errLines())
        .containsExactly(
            "topolens: diagnose needs PATH... (log files or folders) or --job KIND/NAME");
    assertThat(CliRun.of("diagnose", "--job", "pytorchjob/fsdp", "x.log").errLines())
        .containsExactly(
            "topolens: --job and --selector read logs from the cluster; give no PATH with them (x.log)");
    assertThat(CliRun.of("diagnose", "--save", "d", "x.log").code()).isEqualTo(2);
  }
}
