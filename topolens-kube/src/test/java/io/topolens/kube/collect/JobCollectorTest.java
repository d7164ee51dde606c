package io.topolens.kube.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.topolens.kube.Examples;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintResult;
import io.topolens.kube.lint.ManifestLint;
import io.topolens.kube.run.PodRecord;
import io.topolens.kube.run.RunKind;
import io.topolens.nccl.InputProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * JobCollector against fabric8's mock API server in CRUD mode. The logs served are real: rank 0 of
 * the seeds' EKS job (examples/eks-efa-fallback, seed 004), seed 001's NCCL lines
 * (examples/g6e-seed001), and a public two-node log split by host (core test resources
 * nccl/public/008, NVIDIA/nccl#687).
 */
@EnableKubernetesMockClient(crud = true)
class JobCollectorTest {
  /**
   * The mock server logs every request; kept to its warnings (a strong reference keeps the level).
   */
  static final java.util.logging.Logger MOCK_LOG = quiet();

  static java.util.logging.Logger quiet() {
    java.util.logging.Logger l = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");
    l.setLevel(java.util.logging.Level.WARNING);
    return l;
  }

  static final String NS = "ml";

  KubernetesMockServer server;
  KubernetesClient client;
  MockCluster cluster;
  @TempDir Path tmp;
  final List<String> progress = new CopyOnWriteArrayList<>();

  static String read(String path) throws IOException {
    return Files.readString(Examples.root().resolve(path), StandardCharsets.UTF_8);
  }

  static final String SEED004 = "examples/eks-efa-fallback/llama-3-8b-node-0-0.log";
  static final String SEED001 = "examples/g6e-seed001/001-g6e-shm-socket-libfabric.log";
  static final String TWO_NODES =
      "topolens-core/src/test/resources/nccl/public/008-nccl2x-ib-gdrdma-p2p-ipc-read-two-nodes.log";

  /** The lines of {@code log} printed by {@code host}. */
  static String linesOf(String log, String host) throws IOException {
    return read(log)
        .lines()
        .filter(l -> l.startsWith(host + ":"))
        .map(l -> l + "\n")
        .collect(Collectors.joining());
  }

  @BeforeEach
  void setUp() {
    cluster = new MockCluster(server, client, NS);
  }

  Collection collect(String job, String selector, int parallel) throws Exception {
    return collect(job, selector, parallel, tmp.resolve("c"));
  }

  Collection collect(String job, String selector, int parallel, Path dir) throws Exception {
    return new JobCollector(client, progress::add)
        .collect(
            new CollectRequest(
                NS, job == null ? null : JobRef.parse(job), selector, parallel, dir));
  }

  /**
   * The seeds' TrainJob as a cluster keeps it after it failed: four pods on g6e.12xlarge nodes;
   * rank 0 failed, rank 1 restarted once, rank 2's node was terminated with it (its logs are gone),
   * rank 3 never pulled its image.
   */
  void seedsTrainJob() throws IOException {
    cluster.job(
        RunKind.TRAIN_JOB,
        "llama-3-8b",
        Map.of(
            "runtimeRef", Map.of("name", "torch-distributed", "kind", "ClusterTrainingRuntime"),
            "trainer", Map.of("numNodes", 4, "image", "img")));
    cluster.job(
        RunKind.CLUSTER_TRAINING_RUNTIME,
        "torch-distributed",
        Map.of("mlPolicy", Map.of("numNodes", 1, "torch", Map.of("numProcPerNode", "auto"))));
    Map<String, String> labels = Map.of("jobset.sigs.k8s.io/jobset-name", "llama-3-8b");
    String[] phases = {"Failed", "Running", "Failed", "Pending"};
    for (int i = 0; i < 4; i++) {
      String node = i == 3 ? null : "ip-10-0-4-" + (51 + i);
      if (node != null) {
        cluster.node(node, "g6e.12xlarge", 4, 1);
      }
      cluster.pod(
          "llama-3-8b-node-0-" + i + "-x7k2p",
          "llama-3-8b-node-0-" + i,
          node,
          labels,
          List.of("node"),
          phases[i],
          i == 1 || i == 2 ? 1 : 0);
    }
    // another job's pod in the namespace, which must not be read
    cluster.pod(
        "other-0", "other-0", "ip-10-0-4-51", Map.of("app", "other"), List.of("c"), "Running", 0);
    cluster.log("llama-3-8b-node-0-0-x7k2p", "node", false, read(SEED004));
    cluster.log("llama-3-8b-node-0-1-x7k2p", "node", false, read(SEED001));
    cluster.log("llama-3-8b-node-0-1-x7k2p", "node", true, read(SEED004));
    cluster.refuseLog(
        "llama-3-8b-node-0-2-x7k2p",
        "node",
        false,
        500,
        "Get \"https://10.0.4.53:10250/containerLogs/ml/llama-3-8b-node-0-2-x7k2p/node\": dial tcp"
            + " 10.0.4.53:10250: connect: no route to host");
    cluster.refuseLog(
        "llama-3-8b-node-0-2-x7k2p",
        "node",
        true,
        400,
        "previous terminated container \"node\" in pod \"llama-3-8b-node-0-2-x7k2p\" not found");
  }

  @Test
  void aTrainJobsPodsLogsNodesAndManifest() throws Exception {
    seedsTrainJob();
    Collection c = collect("trainjob/llama-3-8b", null, 4);
    Path dir = tmp.resolve("c");
    assertThat(c.job()).isEqualTo("TrainJob llama-3-8b");
    assertThat(c.selector()).isEqualTo("jobset.sigs.k8s.io/jobset-name=llama-3-8b");
    assertThat(c.pods())
        .extracting(PodRecord::name)
        .containsExactly(
            "llama-3-8b-node-0-0-x7k2p",
            "llama-3-8b-node-0-1-x7k2p",
            "llama-3-8b-node-0-2-x7k2p",
            "llama-3-8b-node-0-3-x7k2p");
    assertThat(Files.readString(dir.resolve("logs/llama-3-8b-node-0-0-x7k2p.log")))
        .isEqualTo(read(SEED004));
    assertThat(Files.readString(dir.resolve("logs/llama-3-8b-node-0-1-x7k2p.log")))
        .isEqualTo(read(SEED001));
    assertThat(Files.readString(dir.resolve("logs/llama-3-8b-node-0-1-x7k2p.previous.log")))
        .isEqualTo(read(SEED004));
    try (var files = Files.list(dir.resolve("logs"))) {
      assertThat(files.map(f -> f.getFileName().toString()).sorted())
          .containsExactly(
              "llama-3-8b-node-0-0-x7k2p.log",
              "llama-3-8b-node-0-1-x7k2p.log",
              "llama-3-8b-node-0-1-x7k2p.previous.log");
    }
    assertThat(c.logs()).isEqualTo(3);
    // 2 x 12361 bytes of seed 004's log and 656 of seed 001's
    assertThat(c.bytes()).isEqualTo(25378);
    assertThat(c.gone())
        .extracting(GoneLog::toString)
        .containsExactly(
            "llama-3-8b-node-0-2-x7k2p/node (500: Get \"https://10.0.4.53:10250/containerLogs/ml/llama-3-8b-node-0-2-x7k2p/node\": dial tcp 10.0.4.53:10250: connect: no route to host)",
            "llama-3-8b-node-0-2-x7k2p/node (previous) (400: previous terminated container \"node\" in pod \"llama-3-8b-node-0-2-x7k2p\" not found)",
            "llama-3-8b-node-0-3-x7k2p/node (never started: ImagePullBackOff)");
    assertThat(c.pods().get(1).logs())
        .containsExactly(
            Map.entry("node", "logs/llama-3-8b-node-0-1-x7k2p.log"),
            Map.entry("node (previous)", "logs/llama-3-8b-node-0-1-x7k2p.previous.log"));
    assertThat(c.pods().get(1).exitCodes()).containsExactly(Map.entry("node (previous)", 137));
    assertThat(Files.readAllLines(dir.resolve("nodes.txt")))
        .containsSubsequence(
            "llama-3-8b-node-0-0 ip-10-0-4-51",
            "llama-3-8b-node-0-1 ip-10-0-4-52",
            "llama-3-8b-node-0-2 ip-10-0-4-53")
        .hasSize(4);
    assertThat(c.instanceType()).isEqualTo("g6e.12xlarge");
    assertThat(c.hardware()).containsExactly("3 x g6e.12xlarge (4 GPU, 1 EFA allocatable)");
    assertThat(progress)
        .contains(
            "TrainJob llama-3-8b in namespace ml: 4 pod(s) on 3 node(s): 3 x g6e.12xlarge (4 GPU, 1 EFA allocatable)",
            "fetched 5/5 logs (25.4 KB)");
    // saved: read back as it was written
    assertThat(CollectionFile.read(dir)).contains(c);
    // the manifest holds the job and its runtime, as lint reads them
    String manifest = Files.readString(dir.resolve("manifest.yaml"));
    assertThat(manifest).doesNotContain("status:").doesNotContain("resourceVersion");
    LintResult lint =
        new ManifestLint(LintContext.defaults(), Map.of())
            .lint(List.of(dir.resolve("manifest.yaml").toString()));
    assertThat(lint.problems()).isEmpty();
    assertThat(lint.workloads())
        .extracting(w -> w.kind().kind() + " " + w.name())
        .containsExactly("ClusterTrainingRuntime torch-distributed", "TrainJob llama-3-8b");
  }

  @Test
  void aPyTorchJobOnTwoNodesBySelectorOrByName() throws Exception {
    cluster.job(RunKind.PYTORCH_JOB, "cosmos", Map.of("pytorchReplicaSpecs", Map.of()));
    Map<String, String> labels = Map.of("training.kubeflow.org/job-name", "cosmos");
    cluster.node("ip-10-1-0-1", "p4d.24xlarge", 8, 4);
    cluster.node("ip-10-1-0-2", "p4d.24xlarge", 8, 4);
    cluster.pod(
        "cosmos-master-0",
        "cosmos-hpc-100a45",
        "ip-10-1-0-1",
        labels,
        List.of("pytorch"),
        "Succeeded",
        0);
    cluster.pod(
        "cosmos-worker-0",
        "cosmos-hpc-100a55",
        "ip-10-1-0-2",
        labels,
        List.of("pytorch"),
        "Succeeded",
        0);
    cluster.log("cosmos-master-0", "pytorch", false, linesOf(TWO_NODES, "cosmos-hpc-100a45"));
    cluster.log("cosmos-worker-0", "pytorch", false, linesOf(TWO_NODES, "cosmos-hpc-100a55"));
    for (String how : List.of("job", "selector")) {
      Path dir = tmp.resolve(how);
      Collection c =
          how.equals("job")
              ? collect("pytorchjobs.kubeflow.org/cosmos", null, 2, dir)
              : collect(null, "training.kubeflow.org/job-name=cosmos", 2, dir);
      assertThat(c.gone()).isEmpty();
      assertThat(Files.readString(dir.resolve("logs/cosmos-master-0.log")))
          .hasLineCount(7)
          .isEqualTo(linesOf(TWO_NODES, "cosmos-hpc-100a45"));
      assertThat(Files.readString(dir.resolve("logs/cosmos-worker-0.log"))).hasLineCount(6);
      assertThat(Files.readAllLines(dir.resolve("nodes.txt")))
          .endsWith("cosmos-hpc-100a45 ip-10-1-0-1", "cosmos-hpc-100a55 ip-10-1-0-2");
      assertThat(c.hardware()).containsExactly("2 x p4d.24xlarge (8 GPU, 4 EFA allocatable)");
      assertThat(Files.exists(dir.resolve("manifest.yaml"))).isEqualTo(how.equals("job"));
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "/apis/trainer.kubeflow.org/v1alpha1/namespaces/ml/trainjobs/llama-3-8b | forbidden (403): cannot get trainjobs.trainer.kubeflow.org in namespace ml; the role needs verb \"get\" on resource \"trainjobs.trainer.kubeflow.org\" (examples/k8s/rbac/topolens-diagnose.yaml)",
        "/api/v1/nodes/ip-10-0-4-52 | forbidden (403): cannot get nodes; the role needs verb \"get\" on resource \"nodes\" (examples/k8s/rbac/topolens-diagnose.yaml)",
        "/api/v1/namespaces/ml/pods/llama-3-8b-node-0-1-x7k2p/log?pretty=false&container=node | forbidden (403): cannot get pods/log in namespace ml; the role needs verb \"get\" on resource \"pods/log\" (examples/k8s/rbac/topolens-diagnose.yaml)",
      })
  void aRefusalNamesTheVerbAndResourceInOneLine(String path, String message) throws Exception {
    server
        .expect()
        .get()
        .withPath(path)
        .andReturn(
            403,
            new io.fabric8.kubernetes.api.model.StatusBuilder()
                .withCode(403)
                .withReason("Forbidden")
                .withMessage("forbidden: User \"system:serviceaccount:ml:viewer\" cannot get this")
                .build())
        .always();
    seedsTrainJob();
    assertThatThrownBy(() -> collect("trainjob/llama-3-8b", null, 2))
        .isInstanceOf(InputProblem.class)
        .hasMessage(message);
  }

  @Test
  void aJobWithNoPodsOrNoObjectSaysSo() throws Exception {
    assertThatThrownBy(() -> collect("mpijob/gone", null, 2))
        .isInstanceOf(InputProblem.class)
        .hasMessage("no MPIJob gone in namespace ml (kubectl get mpijobs -n ml)");
    assertThatThrownBy(() -> collect(null, "app=nothing", 2))
        .isInstanceOf(InputProblem.class)
        .hasMessageStartingWith("no pods of pods app=nothing in namespace ml (label app=nothing)");
  }

  /** A thousand pods: every log fetched, never more than the bound at once. */
  @Test
  void aJobOfAThousandPodsIsFetchedWithABound() throws Exception {
    cluster.job(RunKind.JOB, "sweep", Map.of("completions", 1000));
    Map<String, String> labels = Map.of("batch.kubernetes.io/job-name", "sweep");
    for (int n = 0; n < 125; n++) {
      cluster.node("ip-10-2-0-" + n, "p5.48xlarge", 8, 32);
    }
    List<String> bodies = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      String pod = "sweep-" + i;
      cluster.pod(pod, pod, "ip-10-2-0-" + (i / 8), labels, List.of("main"), "Succeeded", 0);
      String body = pod + ":152:152 [" + (i % 8) + "] NCCL INFO NCCL version 2.27.3+cuda12.9\n";
      bodies.add(body);
      server
          .expect()
          .get()
          .withPath(MockCluster.logPath(NS, pod, "main", false))
          .andReturn(200, body)
          .always();
    }
    // the fetching threads alive while logs are fetched, sampled at every progress line
    AtomicInteger peak = new AtomicInteger();
    Collection c =
        new JobCollector(
                client,
                line -> {
                  progress.add(line);
                  long fetching =
                      Thread.getAllStackTraces().keySet().stream()
                          .filter(t -> t.getName().startsWith("topolens-logs-"))
                          .count();
                  peak.accumulateAndGet((int) fetching, Math::max);
                })
            .collect(new CollectRequest(NS, JobRef.parse("job/sweep"), null, 4, tmp.resolve("c")));
    assertThat(c.logs()).isEqualTo(1000);
    assertThat(c.gone()).isEmpty();
    assertThat(peak.get()).isBetween(2, 4);
    for (int i = 0; i < 1000; i += 97) {
      assertThat(Files.readString(tmp.resolve("c/logs/sweep-" + i + ".log")))
          .isEqualTo(bodies.get(i));
    }
    try (var files = Files.list(tmp.resolve("c/logs"))) {
      assertThat(files.count()).isEqualTo(1000);
    }
    assertThat(c.hardware()).containsExactly("125 x p5.48xlarge (8 GPU, 32 EFA allocatable)");
    assertThat(progress.stream().filter(l -> l.startsWith("fetched ")))
        .hasSize(10)
        .last()
        .asString()
        .startsWith("fetched 1000/1000 logs");
  }
}
