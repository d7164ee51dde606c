package io.topolens.kube.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.topolens.kube.manifest.ManifestReader;
import io.topolens.kube.plan.Knobs;
import io.topolens.kube.plan.Plan;
import io.topolens.nccl.InputProblem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JobRunner against fabric8's mock API server in CRUD mode, with a {@link FakeOperator} playing the
 * MPI Operator and the kubelet, and pod logs served as expectations.
 */
@EnableKubernetesMockClient(crud = true)
class JobRunnerTest {
  static final String NS = "ml";
  static final String JOB = "nccl-tests-p5-2x8";
  static final String LAUNCHER = JOB + "-launcher-x7k2p";
  static final String W0 = JOB + "-worker-0";
  static final String W1 = JOB + "-worker-1";
  static final String LAUNCHER_LOG =
      "[1,0]<stdout>:# nccl-tests version 2.16.9 nccl-headers=22707 nccl-library=22707\n"
          + "[1,0]<stdout>:nccl-tests-p5-2x8-worker-0:41:41 [0] NCCL INFO NCCL version 2.27.7+cuda12.8\n";

  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path tmp;
  final List<String> progress = new CopyOnWriteArrayList<>();
  final AtomicReference<Throwable> failed = new AtomicReference<>();

  /** The job the standard planner writes for {@code knobs}, as it would be submitted. */
  static Submission submission(String knobs) throws InputProblem {
    Plan plan = Knobs.plan(knobs);
    return Submission.of(
        new ManifestReader().parse("plan.yaml", plan.yaml().getBytes(StandardCharsets.UTF_8)));
  }

  static Submission plannedMpiJob() throws InputProblem {
    return submission("instance=p5.48xlarge;nodes=2;workload=nccl-tests");
  }

  FakeOperator mpiOperator() {
    return new FakeOperator(client, NS, RunKind.MPI_JOB, JOB);
  }

  JobRunner runner() {
    return new JobRunner(client, progress::add);
  }

  /** Options that delete the job on Ctrl-C and on timeout and keep it when done. */
  RunOptions options(Duration timeout) {
    return options(timeout, Cleanup.DELETE, Cleanup.DELETE, false);
  }

  RunOptions options(
      Duration timeout, Cleanup onInterrupt, Cleanup onTimeout, boolean deleteWhenDone) {
    return new RunOptions(
        NS,
        timeout,
        Duration.ofMillis(30),
        onInterrupt,
        onTimeout,
        deleteWhenDone,
        tmp.resolve("logs"));
  }

  void logs(String pod, String container, String body) {
    logs(pod, container, body, body);
  }

  /** Serves {@code streamed} to a following reader and {@code whole} to one reading at once. */
  void logs(String pod, String container, String streamed, String whole) {
    String base =
        "/api/v1/namespaces/" + NS + "/pods/" + pod + "/log?pretty=false&container=" + container;
    server.expect().get().withPath(base + "&follow=true").andReturn(200, streamed).always();
    server.expect().get().withPath(base).andReturn(200, whole).always();
  }

  @BeforeEach
  void serveLogs() {
    logs(LAUNCHER, "launcher", LAUNCHER_LOG);
    logs(W0, "worker", "Server listening on 0.0.0.0 port 22.\n");
    logs(W1, "worker", "Server listening on 0.0.0.0 port 22.\n");
  }

  /** Starts the job's three pods: workers on two nodes, the launcher on a third. */
  void startPods(FakeOperator op) throws InterruptedException {
    op.awaitJob();
    op.pod(W0, W0, "ip-10-0-1-1", "worker");
    op.pod(W1, W1, "ip-10-0-1-2", "worker");
    op.pod(LAUNCHER, JOB + "-launcher", "ip-10-0-9-9", "launcher");
    for (String p : List.of(W0, W1, LAUNCHER)) {
      op.phase(p, "Running", null);
    }
  }

  /** Ends the three pods of {@link #startPods} with exit code 0. */
  void succeedPods(FakeOperator op) {
    for (String p : List.of(W0, W1, LAUNCHER)) {
      op.phase(p, "Succeeded", 0);
    }
  }

  /** Runs {@code s} while {@code controller} plays the operator beside it. */
  RunOutcome runWhile(ThrowingRunnable controller, Submission s, RunOptions o) throws Exception {
    Thread t = background(controller);
    RunOutcome out = runner().run(s, o);
    t.join();
    return out;
  }

  /**
   * Runs {@code s} while the operator starts its pods, lets them run {@code millis}, ends them with
   * exit code 0 and marks the job Succeeded with {@code message}.
   */
  RunOutcome runToSuccess(Submission s, FakeOperator op, long millis, String message)
      throws Exception {
    return runWhile(
        () -> {
          startPods(op);
          Thread.sleep(millis);
          succeedPods(op);
          op.condition("Succeeded", message);
        },
        s,
        options(Duration.ofSeconds(30)));
  }

  /** Runs {@code s} on a thread of its own (to be interrupted), its outcome into {@code out}. */
  Thread runInBackground(Submission s, RunOptions o, AtomicReference<RunOutcome> out) {
    return background(() -> out.set(runner().run(s, o)));
  }

  /** Runs {@code r} on a daemon thread; what it throws goes into {@link #failed}. */
  Thread background(ThrowingRunnable r) {
    Thread t =
        new Thread(
            () -> {
              try {
                r.run();
              } catch (Throwable e) {
                failed.set(e);
              }
            });
    t.setDaemon(true);
    t.start();
    return t;
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void followsTheJobToItsEndAndRecordsPodsNodesAndLogs() throws Exception {
    Submission s = plannedMpiJob();
    FakeOperator op = mpiOperator();
    RunOutcome out =
        runToSuccess(s, op, 150, "MPIJob ml/nccl-tests-p5-2x8 successfully completed.");
    assertThat(failed.get()).isNull();
    assertThat(out.status()).isEqualTo(RunOutcome.Status.SUCCEEDED);
    assertThat(out.message()).isEqualTo("MPIJob nccl-tests-p5-2x8 succeeded");
    assertThat(out.pods())
        .extracting(
            p ->
                p.name()
                    + " "
                    + p.hostname()
                    + " "
                    + p.node()
                    + " "
                    + p.phase()
                    + " "
                    + p.exitCodes())
        .containsExactlyInAnyOrder(
            W0 + " " + W0 + " ip-10-0-1-1 Succeeded {worker=0}",
            W1 + " " + W1 + " ip-10-0-1-2 Succeeded {worker=0}",
            LAUNCHER + " " + JOB + "-launcher ip-10-0-9-9 Succeeded {launcher=0}");
    Path dir = tmp.resolve("logs");
    assertThat(Files.readString(dir.resolve(LAUNCHER + ".log"))).isEqualTo(LAUNCHER_LOG);
    assertThat(Files.readString(dir.resolve(W0 + ".log")))
        .isEqualTo("Server listening on 0.0.0.0 port 22.\n");
    assertThat(Files.readAllLines(out.nodeMap()))
        .contains(W0 + " ip-10-0-1-1", W1 + " ip-10-0-1-2", JOB + "-launcher ip-10-0-9-9");
    assertThat(io.topolens.placement.NodeMap.read(out.nodeMap()))
        .containsEntry(W0, "ip-10-0-1-1")
        .hasSize(3);
    JsonNode run = new ObjectMapper().readTree(dir.resolve("run.json").toFile());
    assertThat(run.at("/job/kind").asText()).isEqualTo("MPIJob");
    assertThat(run.at("/outcome").asText()).isEqualTo("succeeded");
    assertThat(run.at("/pods").size()).isEqualTo(3);
    assertThat(run.at("/sharedNodes").size()).isZero();
    assertThat(op.jobExists()).isTrue();
    assertThat(progress)
        .contains(
            "created MPIJob "
                + JOB
                + " in namespace ml ("
                + client.getMasterUrl().toString().replaceAll("/$", "")
                + ")",
            "pod " + W0 + " scheduled on node ip-10-0-1-1",
            "pod " + W0 + ": Running",
            "pod " + W0 + ": Succeeded",
            "MPIJob nccl-tests-p5-2x8 succeeded");
  }

  @Test
  void aFailedJobKeepsItsLogsAndSaysWhy() throws Exception {
    Submission s = plannedMpiJob();
    FakeOperator op = mpiOperator();
    RunOutcome out =
        runWhile(
            () -> {
              startPods(op);
              Thread.sleep(100);
              op.phase(LAUNCHER, "Failed", 1);
              op.condition(
                  "Failed",
                  "MPIJob ml/nccl-tests-p5-2x8 has failed because 1 Launcher replica(s) failed.");
            },
            s,
            options(Duration.ofSeconds(30), Cleanup.DELETE, Cleanup.DELETE, true));
    assertThat(out.status()).isEqualTo(RunOutcome.Status.FAILED);
    assertThat(out.message())
        .isEqualTo(
            "MPIJob nccl-tests-p5-2x8 failed: MPIJob ml/nccl-tests-p5-2x8 has failed because 1 Launcher replica(s) failed.; deleted MPIJob nccl-tests-p5-2x8");
    assertThat(Files.readString(tmp.resolve("logs").resolve(LAUNCHER + ".log")))
        .isEqualTo(LAUNCHER_LOG);
    assertThat(out.pods())
        .filteredOn(p -> p.name().equals(LAUNCHER))
        .singleElement()
        .satisfies(p -> assertThat(p.exitCodes()).containsEntry("launcher", 1));
    assertThat(op.jobExists()).isFalse();
  }

  @Test
  void aRestartedContainersPreviousAttemptIsKeptBesideItsLog() throws Exception {
    String previous =
        "[1,0]<stderr>:nccl-tests-p5-2x8-worker-0:41:41 [0] NCCL WARN NET/OFI Only EFA provider is"
            + " supported\n";
    server
        .expect()
        .get()
        .withPath(
            "/api/v1/namespaces/"
                + NS
                + "/pods/"
                + LAUNCHER
                + "/log?pretty=false&container=launcher&previous=true")
        .andReturn(200, previous)
        .always();
    Submission s = plannedMpiJob();
    FakeOperator op = mpiOperator();
    RunOutcome out =
        runWhile(
            () -> {
              startPods(op);
              op.restarted(LAUNCHER, 1);
              Thread.sleep(100);
              succeedPods(op);
              op.restarted(LAUNCHER, 1);
              op.condition("Succeeded", "MPIJob ml/nccl-tests-p5-2x8 successfully completed.");
            },
            s,
            options(Duration.ofSeconds(30)));
    assertThat(failed.get()).isNull();
    Path dir = tmp.resolve("logs");
    assertThat(Files.readString(dir.resolve(LAUNCHER + ".previous.log"))).isEqualTo(previous);
    assertThat(Files.readString(dir.resolve(LAUNCHER + ".log"))).isEqualTo(LAUNCHER_LOG);
    assertThat(out.pods())
        .filteredOn(p -> p.name().equals(LAUNCHER))
        .singleElement()
        .satisfies(
            p ->
                assertThat(p.logs())
                    .containsEntry("launcher", LAUNCHER + ".log")
                    .containsEntry("launcher (previous)", LAUNCHER + ".previous.log"));
    assertThat(progress)
        .contains(
            "log of "
                + LAUNCHER
                + "/launcher before its restart (1 restart(s)) in "
                + LAUNCHER
                + ".previous.log");
  }

  @Test
  void ctrlCDeletesTheJobByDefaultAndKeepsPartialLogs() throws Exception {
    Submission s = plannedMpiJob();
    FakeOperator op = mpiOperator();
    AtomicReference<RunOutcome> out = new AtomicReference<>();
    Thread runner =
        runInBackground(
            s, options(Duration.ofSeconds(30), Cleanup.DELETE, Cleanup.KEEP, false), out);
    startPods(op);
    Path log = tmp.resolve("logs").resolve(LAUNCHER + ".log");
    for (int i = 0; i < 200 && !(Files.exists(log) && Files.size(log) > 0); i++) {
      Thread.sleep(20);
    }
    runner.interrupt();
    runner.join(10_000);
    assertThat(failed.get()).isNull();
    assertThat(out.get().status()).isEqualTo(RunOutcome.Status.INTERRUPTED);
    assertThat(out.get().message())
        .isEqualTo("interrupted; deleted MPIJob nccl-tests-p5-2x8 (--on-interrupt keep keeps it)");
    assertThat(op.jobExists()).isFalse();
    assertThat(Files.readString(log)).isEqualTo(LAUNCHER_LOG);
    assertThat(Files.readAllLines(out.get().nodeMap())).hasSize(4);
  }

  @Test
  void ctrlCCanKeepTheJob() throws Exception {
    Submission s = plannedMpiJob();
    FakeOperator op = mpiOperator();
    AtomicReference<RunOutcome> out = new AtomicReference<>();
    Thread runner =
        runInBackground(
            s, options(Duration.ofSeconds(30), Cleanup.KEEP, Cleanup.DELETE, false), out);
    op.awaitJob();
    Thread.sleep(100);
    runner.interrupt();
    runner.join(10_000);
    assertThat(out.get().status()).isEqualTo(RunOutcome.Status.INTERRUPTED);
    assertThat(out.get().message())
        .isEqualTo(
            "interrupted; kept MPIJob nccl-tests-p5-2x8 (delete it with: kubectl delete mpijob nccl-tests-p5-2x8 -n ml)");
    assertThat(op.jobExists()).isTrue();
  }

  @Test
  void aTimeoutStopsTheRunAndSaysWhatItDid() throws Exception {
    Submission s = plannedMpiJob();
    FakeOperator op = mpiOperator();
    RunOutcome out =
        runWhile(
            () -> {
              op.awaitJob();
              op.pod(W0, W0, null, "worker");
              op.unschedulable(
                  W0, "0/3 nodes are available: 3 Insufficient vpc.amazonaws.com/efa.");
            },
            s,
            options(Duration.ofMillis(800), Cleanup.DELETE, Cleanup.KEEP, false));
    assertThat(out.status()).isEqualTo(RunOutcome.Status.TIMED_OUT);
    assertThat(out.message())
        .isEqualTo(
            "timed out after 0.8 s; kept MPIJob nccl-tests-p5-2x8 (delete it with: kubectl delete mpijob nccl-tests-p5-2x8 -n ml) (--on-timeout keep keeps it)"
                .replace(" (--on-timeout keep keeps it)", ""));
    assertThat(progress)
        .contains(
            "pod "
                + W0
                + ": Unschedulable: 0/3 nodes are available: 3 Insufficient vpc.amazonaws.com/efa.");
    assertThat(out.pods())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.node()).isNull();
              assertThat(p.problem()).startsWith("Unschedulable");
            });
    assertThat(op.jobExists()).isTrue();
  }

  @Test
  void podsSharingANodeAreNamed() throws Exception {
    Submission s = submission("instance=p4d.24xlarge;nodes=1;gpusPerPod=4;name=split");
    FakeOperator op = new FakeOperator(client, NS, RunKind.TRAIN_JOB, "split");
    logs("split-node-0-0-aaaaa", "node", "");
    logs("split-node-0-1-bbbbb", "node", "");
    RunOutcome out =
        runWhile(
            () -> {
              op.awaitJob();
              op.pod("split-node-0-0-aaaaa", "split-node-0-0", "ip-10-0-3-3", "node");
              op.pod("split-node-0-1-bbbbb", "split-node-0-1", "ip-10-0-3-3", "node");
              op.phase("split-node-0-0-aaaaa", "Succeeded", 0);
              op.phase("split-node-0-1-bbbbb", "Succeeded", 0);
              op.condition("Complete", "TrainJob is completed");
            },
            s,
            options(Duration.ofSeconds(30)));
    assertThat(out.status()).isEqualTo(RunOutcome.Status.SUCCEEDED);
    assertThat(PodRecord.shared(out.pods()))
        .containsEntry("ip-10-0-3-3", List.of("split-node-0-0-aaaaa", "split-node-0-1-bbbbb"));
    assertThat(progress)
        .contains("pods sharing node ip-10-0-3-3: split-node-0-0-aaaaa, split-node-0-1-bbbbb");
    assertThat(Files.readAllLines(out.nodeMap()))
        .contains("split-node-0-0 ip-10-0-3-3", "split-node-0-1 ip-10-0-3-3");
  }

  @Test
  void aBrokenLogStreamIsFetchedWholeWhenThePodEnds() throws Exception {
    Submission s = plannedMpiJob();
    server.clearExpectations();
    String firstLine = LAUNCHER_LOG.substring(0, LAUNCHER_LOG.indexOf('\n') + 1);
    logs(LAUNCHER, "launcher", firstLine, LAUNCHER_LOG);
    logs(W0, "worker", "");
    logs(W1, "worker", "");
    RunOutcome out = runToSuccess(s, mpiOperator(), 100, "done");
    assertThat(out.status()).isEqualTo(RunOutcome.Status.SUCCEEDED);
    assertThat(Files.readString(tmp.resolve("logs").resolve(LAUNCHER + ".log")))
        .isEqualTo(LAUNCHER_LOG);
    assertThat(progress)
        .contains("log of " + LAUNCHER + "/launcher fetched whole after its stream broke");
  }

  @Test
  void aForbiddenNamespaceIsOneLine() throws Exception {
    Submission s = plannedMpiJob();
    server
        .expect()
        .post()
        .withPath("/apis/kubeflow.org/v2beta1/namespaces/locked/mpijobs")
        .andReturn(
            403,
            new io.fabric8.kubernetes.api.model.StatusBuilder()
                .withCode(403)
                .withReason("Forbidden")
                .withMessage(
                    "mpijobs.kubeflow.org is forbidden: User \"dev\" cannot create resource \"mpijobs\" in API group \"kubeflow.org\" in the namespace \"locked\"")
                .build())
        .always();
    RunOptions o =
        new RunOptions(
            "locked",
            Duration.ofSeconds(5),
            Duration.ofMillis(30),
            Cleanup.DELETE,
            Cleanup.DELETE,
            false,
            tmp);
    assertThatThrownBy(() -> runner().run(s, o))
        .isInstanceOf(InputProblem.class)
        .hasMessage(
            "cannot create MPIJob nccl-tests-p5-2x8 in namespace locked: forbidden (403): mpijobs.kubeflow.org is forbidden: User \"dev\" cannot create resource \"mpijobs\" in API group \"kubeflow.org\" in the namespace \"locked\" (see docs/kubernetes.md for the RBAC topolens run needs)");
  }

  @Test
  void aClusterWithoutTheCrdIsOneLine() throws Exception {
    Submission s = plannedMpiJob();
    server
        .expect()
        .post()
        .withPath("/apis/kubeflow.org/v2beta1/namespaces/ml/mpijobs")
        .andReturn(404, "404 page not found")
        .always();
    assertThatThrownBy(() -> runner().run(s, options(Duration.ofSeconds(5))))
        .hasMessage(
            "cannot create MPIJob nccl-tests-p5-2x8 in namespace ml: the cluster has no MPIJob (kubeflow.org/v2beta1); is its operator installed? (kubectl get crd mpijobs.kubeflow.org)");
  }

  @Test
  void anExistingJobIsOneLineAndARuntimeIsReused() throws Exception {
    Submission s = submission("instance=p5.48xlarge;nodes=2;kind=trainjob;workload=nccl-tests");
    RunOptions o = options(Duration.ofMillis(200));
    RunOutcome first = runner().run(s, o);
    assertThat(first.status()).isEqualTo(RunOutcome.Status.TIMED_OUT);
    assertThat(first.message())
        .isEqualTo(
            "timed out after 0.2 s; deleted TrainJob nccl-tests-p5-2x8, TrainingRuntime nccl-tests-p5-2x8-mpi (--on-timeout keep keeps it)");
    RunOptions keep = options(Duration.ofMillis(200), Cleanup.KEEP, Cleanup.KEEP, false);
    runner().run(s, keep);
    assertThatThrownBy(() -> runner().run(s, keep))
        .hasMessage(
            "cannot create TrainJob nccl-tests-p5-2x8 in namespace ml: it already exists (409); delete it first or choose another name");
    assertThat(progress).contains("TrainingRuntime nccl-tests-p5-2x8-mpi already exists; using it");
  }

  @Test
  void anUnreachableClusterIsOneLine() throws Exception {
    Submission s = plannedMpiJob();
    try (KubernetesClient nowhere =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder()
                    .withMasterUrl("https://127.0.0.1:1")
                    .withRequestRetryBackoffLimit(0)
                    .withConnectionTimeout(2000)
                    .build())
            .build()) {
      assertThatThrownBy(
              () -> new JobRunner(nowhere, progress::add).run(s, options(Duration.ofSeconds(5))))
          .isInstanceOf(InputProblem.class)
          .hasMessageStartingWith(
              "cannot reach the cluster at https://127.0.0.1:1 to create MPIJob nccl-tests-p5-2x8 in namespace ml (")
          .hasMessageEndingWith("); check the kubeconfig context (--context) and the network");
    }
  }
}
