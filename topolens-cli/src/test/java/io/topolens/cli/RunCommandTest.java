package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code topolens run} end to end against fabric8's mock API server (CRUD mode) through a
 * kubeconfig, with a thread playing the MPI Operator; the launcher's log is a real nccl-tests run
 * on 4 x H200 over sockets (the core fixture fixtures/h200x4/ar-sock.log), so diagnose and bench
 * have real input.
 */
@EnableKubernetesMockClient(crud = true)
class RunCommandTest {
  static final ResourceDefinitionContext MPIJOB =
      new ResourceDefinitionContext.Builder()
          .withGroup("kubeflow.org")
          .withVersion("v2beta1")
          .withKind("MPIJob")
          .withPlural("mpijobs")
          .withNamespaced(true)
          .build();
  static final String JOB = "nccl-tests-p5-2x8";

  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path tmp;

  Path kubeconfig() throws Exception {
    Path kc = tmp.resolve("kubeconfig");
    Files.writeString(
        kc,
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
    return kc;
  }

  void log(String pod, String container, String body) {
    String base = "/api/v1/namespaces/ml/pods/" + pod + "/log?pretty=false&container=" + container;
    server.expect().get().withPath(base + "&follow=true").andReturn(200, body).always();
    server.expect().get().withPath(base).andReturn(200, body).always();
  }

  void pod(String name, String hostname, String node, String role, String container) {
    Pod p =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("ml")
            .withLabels(
                Map.of(
                    "training.kubeflow.org/job-name", JOB, "training.kubeflow.org/job-role", role))
            .endMetadata()
            .withNewSpec()
            .withHostname(hostname)
            .withNodeName(node)
            .withContainers(new ContainerBuilder().withName(container).withImage("img").build())
            .endSpec()
            .withStatus(
                new PodStatusBuilder()
                    .withPhase("Succeeded")
                    .withContainerStatuses(
                        new ContainerStatusBuilder()
                            .withName(container)
                            .withNewState()
                            .withNewTerminated()
                            .withExitCode(0)
                            .withReason("Completed")
                            .endTerminated()
                            .endState()
                            .build())
                    .build())
            .build();
    client.pods().inNamespace("ml").resource(p).create();
  }

  @Test
  void runsAPlannedNcclTestsJobThenDiagnosesWhatItCollected() throws Exception {
    log(
        JOB + "-launcher-q8w2z",
        "launcher",
        Files.readString(Path.of(CliRun.fixture("fixtures/h200x4/ar-sock.log"))));
    log(JOB + "-worker-0", "worker", "Server listening on 0.0.0.0 port 22.\n");
    log(JOB + "-worker-1", "worker", "Server listening on 0.0.0.0 port 22.\n");
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread operator =
        new Thread(
            () -> {
              try {
                GenericKubernetesResource job = null;
                for (int i = 0; i < 500 && job == null; i++) {
                  Thread.sleep(20);
                  job =
                      client
                          .genericKubernetesResources(MPIJOB)
                          .inNamespace("ml")
                          .withName(JOB)
                          .get();
                }
                pod(JOB + "-worker-0", JOB + "-worker-0", "ip-10-1-0-1", "worker", "worker");
                pod(JOB + "-worker-1", JOB + "-worker-1", "ip-10-1-0-2", "worker", "worker");
                pod(
                    JOB + "-launcher-q8w2z",
                    JOB + "-launcher",
                    "ip-10-1-0-9",
                    "launcher",
                    "launcher");
                job.getAdditionalProperties()
                    .put(
                        "status",
                        Map.of(
                            "conditions", List.of(Map.of("type", "Succeeded", "status", "True"))));
                client.genericKubernetesResources(MPIJOB).inNamespace("ml").resource(job).update();
              } catch (Throwable e) {
                failed.set(e);
              }
            });
    operator.start();
    Path logs = tmp.resolve("run");
    CliRun r =
        CliRun.of(
            "run",
            "--plan",
            "--instance",
            "p5.48xlarge",
            "--nodes",
            "2",
            "--workload",
            "nccl-tests",
            "--kubeconfig",
            kubeconfig().toString(),
            "--poll",
            "50ms",
            "--timeout",
            "60s",
            "--logs",
            logs.toString());
    operator.join();
    assertThat(failed.get()).isNull();
    assertThat(r.err())
        .contains(
            "] created MPIJob " + JOB + " in namespace ml (https://",
            "] pod " + JOB + "-worker-0 scheduled on node ip-10-1-0-1",
            "] MPIJob " + JOB + " succeeded");
    assertThat(r.out())
        .contains("topolens run: succeeded: MPIJob " + JOB + " succeeded")
        .contains("  pod       " + JOB + "-worker-0 -> ip-10-1-0-1, Succeeded, exit [0]")
        .contains("  pod       " + JOB + "-launcher-q8w2z -> ip-10-1-0-9, Succeeded, exit [0]");
    // diagnose ran on the collected logs: the real log's 4 GPUs of one host talked over sockets
    assertThat(r.out()).contains("Findings:").contains("same-host-over-network");
    // bench ran on the launcher's nccl-tests output
    assertThat(r.out()).contains("all_reduce_perf");
    assertThat(r.code()).isEqualTo(1);
    assertThat(Files.readString(logs.resolve(JOB + "-launcher-q8w2z.log")))
        .isEqualTo(Files.readString(Path.of(CliRun.fixture("fixtures/h200x4/ar-sock.log"))));
    assertThat(Files.readAllLines(logs.resolve("nodes.txt")))
        .contains(JOB + "-launcher ip-10-1-0-9");
    assertThat(Files.readString(logs.resolve("manifests.yaml")))
        .contains("kind: MPIJob", "launcherCreationPolicy: WaitForWorkersReady");
    assertThat(logs.resolve("run.json")).exists();
  }

  @Test
  void aFileRunsToo_andATimeoutDeletesTheJobAndExits1() throws Exception {
    Path logs = tmp.resolve("run");
    CliRun r =
        CliRun.of(
            "run",
            CliRun.example("plan/mpijob-nccl-tests-p5-2x8.yaml"),
            "--kubeconfig",
            kubeconfig().toString(),
            "--poll",
            "50ms",
            "--timeout",
            "1s",
            "--logs",
            logs.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out())
        .startsWith(
            "topolens run: timed out: timed out after 1 s; deleted MPIJob "
                + JOB
                + " (--on-timeout keep keeps it)");
    assertThat(r.err()).contains("topolens: no pod logs were collected; nothing to diagnose");
    assertThat(client.genericKubernetesResources(MPIJOB).inNamespace("ml").withName(JOB).get())
        .isNull();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "run|topolens: run needs a manifest FILE, or --plan with --instance and --nodes",
        "run --plan|topolens: plan needs --instance TYPE (or instance: in the spec file)",
        "run FILE --plan --instance p4d.24xlarge --nodes 2|topolens: give a manifest FILE or --plan, not both",
        "run FILE --instance p4d.24xlarge|topolens: plan options (--instance, --nodes, --spec) go with --plan, not with a FILE",
        "run FILE --timeout soon|topolens: --timeout must be a duration such as 90s, 30m or 2h, not \"soon\"",
        "run FILE --on-interrupt maybe|topolens: --on-interrupt must be keep or delete, not \"maybe\"",
        "run FILE --kubeconfig /no/kubeconfig|topolens: /no/kubeconfig: no such kubeconfig file",
        "run BAD|topolens: BAD:9: trainer.numNodes must be an integer, not \"two\"",
      })
  void badInputIsOneLineAndExit2(String args, String message) throws Exception {
    String file = CliRun.example("plan/mpijob-nccl-tests-p5-2x8.yaml");
    String bad = CliRun.example("lint/bad-numnodes.yaml");
    String[] a = args.replace("BAD", bad).replace("FILE", file).split(" ");
    String[] withLogs =
        java.util.stream.Stream.concat(
                java.util.Arrays.stream(a),
                java.util.stream.Stream.of("--logs", tmp.resolve("x").toString()))
            .toArray(String[]::new);
    CliRun r = CliRun.of(withLogs);
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly(message.replace("BAD", bad));
    assertThat(r.err()).doesNotContain("Exception");
  }

  @Test
  void anUnreachableClusterIsOneLine() throws Exception {
    Path kc = tmp.resolve("far");
    Files.writeString(
        kc,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: far
          cluster: {server: "https://127.0.0.1:1"}
        contexts:
        - name: far
          context: {cluster: far, user: dev}
        current-context: far
        users:
        - name: dev
          user: {token: t}
        """);
    CliRun r =
        CliRun.of(
            "run",
            CliRun.example("plan/trainjob-p4d-4x8.yaml"),
            "--kubeconfig",
            kc.toString(),
            "--logs",
            tmp.resolve("x").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "topolens: cannot reach the cluster at https://127.0.0.1:1 to create TrainJob train-p4d-4x8 in namespace default (connection refused); check the kubeconfig context (--context) and the network");
  }

  @Test
  void aMissingContextIsOneLine() throws Exception {
    CliRun r =
        CliRun.of(
            "run",
            CliRun.example("plan/trainjob-p4d-4x8.yaml"),
            "--kubeconfig",
            kubeconfig().toString(),
            "--context",
            "prod",
            "--logs",
            tmp.resolve("x").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("topolens: the kubeconfig has no context prod");
  }
}
