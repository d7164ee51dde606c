package io.topolens.lab.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import io.topolens.lab.experiment.ExperimentRun;
import io.topolens.lab.experiment.ExperimentSpec;
import io.topolens.lab.experiment.SpecReader;
import io.topolens.lab.experiment.VariantAnalysis;
import io.topolens.verdict.Hardware;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Experiments on Kubernetes against fabric8's mock API server in CRUD mode. A small operator on a
 * thread of its own plays Kubeflow Trainer and the kubelet: when a TrainJob appears it records what
 * the cluster holds at that moment (the ConfigMap, jobs left over from earlier variants), then
 * creates the job's pods and ends them as the scenario of that variant says. Pod logs are served as
 * expectations: the real nccl-tests output of 4 x H200 over sockets (ar-sock.log).
 */
@EnableKubernetesMockClient(crud = true)
class KubernetesExperimentTest {
  static final String NS = "ml";
  static final Path AR_SOCK =
      Path.of("../topolens-core/src/test/resources/fixtures/h200x4/ar-sock.log");
  static final ResourceDefinitionContext TRAIN_JOBS =
      new ResourceDefinitionContext.Builder()
          .withGroup("trainer.kubeflow.org")
          .withVersion("v1alpha1")
          .withKind("TrainJob")
          .withPlural("trainjobs")
          .withNamespaced(true)
          .build();

  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path dir;

  /** What the cluster held when each job appeared: "JOB: configmaps=[...] jobs=[...]". */
  final List<String> seen = new CopyOnWriteArrayList<>();

  final AtomicReference<Throwable> operatorFailed = new AtomicReference<>();
  volatile boolean operating = true;
  Thread operator;

  @AfterEach
  void stopOperator() throws InterruptedException {
    operating = false;
    if (operator != null) {
      operator.join(5000);
    }
    assertThat(operatorFailed.get()).isNull();
  }

  enum Ending {
    SUCCEED,
    FAIL,
    UNSCHEDULABLE,
    /** Runs until deleted the first time, succeeds the next. */
    HANG_ONCE
  }

  /** Starts the operator: each job's pods end as {@code endings} says for the job's variant. */
  void operate(Map<String, Ending> endings, Consumer<String> onJob) {
    // the mock server is shared by the tests of this class: the node may be there already
    client.nodes().withName("ip-10-0-1-1").delete();
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName("ip-10-0-1-1")
                .withLabels(
                    Map.of(
                        "node.kubernetes.io/instance-type",
                        "p4d.24xlarge",
                        "topology.kubernetes.io/zone",
                        "us-east-1a"))
                .endMetadata()
                .build())
        .create();
    Set<String> handled = new HashSet<>();
    operator =
        new Thread(
            () -> {
              try {
                Set<String> hung = new HashSet<>();
                while (operating) {
                  // by uid: a resumed run re-creates a deleted job under its old name, perhaps
                  // between two of these polls
                  Map<String, GenericKubernetesResource> now = new java.util.LinkedHashMap<>();
                  for (GenericKubernetesResource j :
                      client
                          .genericKubernetesResources(TRAIN_JOBS)
                          .inNamespace(NS)
                          .list()
                          .getItems()) {
                    now.put(j.getMetadata().getName() + "/" + j.getMetadata().getUid(), j);
                  }
                  // a deleted job's pods go with it, as JobSet's owner references make them,
                  // before a new job of the same name makes its own
                  for (String gone : new ArrayList<>(handled)) {
                    if (!now.containsKey(gone)) {
                      handled.remove(gone);
                      client
                          .pods()
                          .inNamespace(NS)
                          .withLabel(
                              "jobset.sigs.k8s.io/jobset-name",
                              gone.substring(0, gone.indexOf('/')))
                          .delete();
                    }
                  }
                  for (var entry : now.entrySet()) {
                    if (handled.add(entry.getKey())) {
                      GenericKubernetesResource j = entry.getValue();
                      String name = j.getMetadata().getName();
                      record(name);
                      onJob.accept(name);
                      String variant = name.replaceFirst("^kx-", "").replaceFirst("-probe$", "");
                      Ending e = endings.getOrDefault(variant, Ending.SUCCEED);
                      play(j, e == Ending.HANG_ONCE && !hung.add(name) ? Ending.SUCCEED : e);
                    }
                  }
                  Thread.sleep(20);
                }
              } catch (Throwable t) {
                if (operating) {
                  operatorFailed.set(t);
                }
              }
            });
    operator.setDaemon(true);
    operator.start();
  }

  private void record(String job) {
    List<String> cms = new ArrayList<>();
    for (ConfigMap c : client.configMaps().inNamespace(NS).list().getItems()) {
      cms.add(c.getMetadata().getName());
    }
    List<String> jobs = new ArrayList<>();
    for (GenericKubernetesResource j :
        client.genericKubernetesResources(TRAIN_JOBS).inNamespace(NS).list().getItems()) {
      jobs.add(j.getMetadata().getName());
    }
    List<String> pods = new ArrayList<>();
    for (Pod p : client.pods().inNamespace(NS).list().getItems()) {
      pods.add(p.getMetadata().getName());
    }
    java.util.Collections.sort(cms);
    java.util.Collections.sort(jobs);
    seen.add(job + ": configmaps=" + cms + " jobs=" + jobs + " pods=" + pods);
  }

  private void play(GenericKubernetesResource job, Ending ending) throws Exception {
    String name = job.getMetadata().getName();
    @SuppressWarnings("unchecked")
    Map<String, Object> trainer =
        (Map<String, Object>)
            ((Map<String, Object>) job.getAdditionalProperties().get("spec")).get("trainer");
    int pods = ((Number) trainer.get("numNodes")).intValue();
    String log = Files.readString(AR_SOCK);
    for (int i = 0; i < pods; i++) {
      String pod = name + "-node-0-" + i;
      String base =
          "/api/v1/namespaces/" + NS + "/pods/" + pod + "/log?pretty=false&container=node";
      String body = i == 0 ? log : "rank " + i + " done\n";
      server.expect().get().withPath(base + "&follow=true").andReturn(200, body).always();
      server.expect().get().withPath(base).andReturn(200, body).always();
      Pod p =
          new PodBuilder()
              .withNewMetadata()
              .withName(pod)
              .withNamespace(NS)
              .withLabels(Map.of("jobset.sigs.k8s.io/jobset-name", name))
              .endMetadata()
              .withNewSpec()
              .withHostname(pod)
              .addNewContainer()
              .withName("node")
              .withImage("img")
              .endContainer()
              .endSpec()
              .build();
      if (ending == Ending.UNSCHEDULABLE) {
        p.setStatus(
            new io.fabric8.kubernetes.api.model.PodStatusBuilder()
                .withPhase("Pending")
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("False")
                .withReason("Unschedulable")
                .withMessage("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")
                .endCondition()
                .build());
        client.pods().inNamespace(NS).resource(p).create();
        client
            .v1()
            .events()
            .inNamespace(NS)
            .resource(
                new EventBuilder()
                    .withNewMetadata()
                    .withName(pod + ".1")
                    .withNamespace(NS)
                    .endMetadata()
                    .withType("Warning")
                    .withReason("FailedScheduling")
                    .withLastTimestamp("2026-11-25T10:00:00Z")
                    .withMessage("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")
                    .withNewInvolvedObject()
                    .withKind("Pod")
                    .withName(pod)
                    .withNamespace(NS)
                    .endInvolvedObject()
                    .build())
            .create();
        continue;
      }
      p.getSpec().setNodeName("ip-10-0-1-1");
      client.pods().inNamespace(NS).resource(p).create();
      status(pod, "Running", null);
    }
    if (ending == Ending.UNSCHEDULABLE || ending == Ending.HANG_ONCE) {
      return;
    }
    Thread.sleep(100);
    boolean ok = ending == Ending.SUCCEED;
    for (int i = 0; i < pods; i++) {
      status(name + "-node-0-" + i, ok ? "Succeeded" : "Failed", ok ? 0 : 1);
    }
    GenericKubernetesResource r =
        client.genericKubernetesResources(TRAIN_JOBS).inNamespace(NS).withName(name).get();
    r.getAdditionalProperties()
        .put(
            "status",
            Map.of(
                "conditions",
                List.of(
                    Map.of(
                        "type",
                        ok ? "Complete" : "Failed",
                        "status",
                        "True",
                        "message",
                        ok ? "jobset completed successfully" : "jobset failed: node-0 failed"))));
    client.genericKubernetesResources(TRAIN_JOBS).inNamespace(NS).resource(r).update();
  }

  private void status(String pod, String phase, Integer exit) {
    Pod p = client.pods().inNamespace(NS).withName(pod).get();
    var s = new io.fabric8.kubernetes.api.model.ContainerStatusBuilder().withName("node");
    if (exit == null) {
      s.withNewState()
          .withNewRunning()
          .withStartedAt("2026-11-25T10:00:00Z")
          .endRunning()
          .endState();
    } else {
      s.withNewState().withNewTerminated().withExitCode(exit).endTerminated().endState();
    }
    p.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder()
            .withPhase(phase)
            .withContainerStatuses(s.build())
            .build());
    client.pods().inNamespace(NS).resource(p).update();
  }

  Path spec(String variants) throws Exception {
    Path f = dir.resolve("kx.yaml");
    Files.writeString(
        f,
        """
        name: kx
        run: probe
        where:
          kubernetes:
            instance: p4d.24xlarge
            namespace: ml
            kind: trainjob
        timeout: 60s
        probe:
          collectives: all_reduce
          minBytes: 1M
          maxBytes: 64M
        variants:
        """
            + variants);
    return f;
  }

  record Ran(Experiment results, String err, ExperimentRun run) {}

  /** How long pods may stay unscheduled; the unschedulable test shortens it. */
  Duration pending = Duration.ofSeconds(60);

  Ran experiment(Path specFile, Path out, boolean resume, Consumer<ExperimentRun> started)
      throws Exception {
    ExperimentSpec spec = SpecReader.read(specFile);
    ClusterSettings settings =
        new ClusterSettings(null, null, null, pending, Duration.ofMillis(30), false);
    KubernetesVariantRunner runner =
        new KubernetesVariantRunner(
            spec, client, new VariantManifests(spec, NS, HardwareCatalog.builtIn()), NS, settings);
    StringWriter err = new StringWriter();
    ExperimentRun run =
        new ExperimentRun(
            spec,
            runner,
            new VariantAnalysis(HardwareCatalog.builtIn(), Hardware.unknown()),
            HardwareCatalog.builtIn(),
            out,
            resume,
            new PrintWriter(err, true));
    started.accept(run);
    Experiment e = run.run();
    return new Ran(e, err.toString(), run);
  }

  static List<String> statuses(Experiment e) {
    return e.variants().stream().map(v -> v.name() + " " + v.status()).toList();
  }

  @Test
  void configMapThenJobOneVariantAtATimeLogsCollectedAndEverythingDeleted() throws Exception {
    operate(Map.of(), job -> {});
    Path out = dir.resolve("out");
    Ran r = experiment(spec("  layout: [1x2, 2x1]\n  network: eni\n"), out, false, x -> {});

    assertThat(statuses(r.results())).containsExactly("1x2 ok", "2x1 ok");
    // each job found its ConfigMap already there, and nothing of the variant before it
    assertThat(seen)
        .containsExactly(
            "kx-1x2-probe: configmaps=[kx-1x2-probe-py] jobs=[kx-1x2-probe] pods=[]",
            "kx-2x1-probe: configmaps=[kx-2x1-probe-py] jobs=[kx-2x1-probe] pods=[]");
    // and nothing is left after the last
    assertThat(client.configMaps().inNamespace(NS).list().getItems()).isEmpty();
    assertThat(client.genericKubernetesResources(TRAIN_JOBS).inNamespace(NS).list().getItems())
        .isEmpty();

    Path probe = out.resolve("variants/2x1/probe");
    assertThat(Files.readString(probe.resolve("kx-2x1-probe-node-0-0.log")))
        .isEqualTo(Files.readString(AR_SOCK));
    assertThat(Files.readString(probe.resolve("kx-2x1-probe-node-0-1.log")))
        .isEqualTo("rank 1 done\n");
    assertThat(Files.readAllLines(probe.resolve("nodes.txt")))
        .contains("kx-2x1-probe-node-0-0 ip-10-0-1-1", "kx-2x1-probe-node-0-1 ip-10-0-1-1");
    assertThat(Files.readAllLines(probe.resolve("node-types.txt")))
        .contains("ip-10-0-1-1 p4d.24xlarge us-east-1a");
    // the manifests applied: the ConfigMap mounted, the probe run from it under env://
    String applied = Files.readString(probe.resolve("manifests.yaml"));
    assertThat(applied)
        .contains("kind: ConfigMap", "name: kx-2x1-probe-py", "mountPath: /topolens")
        .contains("numNodes: 2", "numProcPerNode: 1");
    var docs =
        new io.topolens.kube.manifest.ManifestReader()
            .read(probe.resolve("manifests.yaml").toString());
    assertThat(docs.get(1).get("/spec/trainer/command").toString())
        .isEqualTo(
            "[\"/bin/bash\",\"-c\",\"exec env -u RANK -u WORLD_SIZE -u LOCAL_RANK python3"
                + " /topolens/probe.py --collectives all_reduce -b 1M -e 64M -f 2 -w 5 -n 20\"]");
    assertThat(applied.indexOf("kind: ConfigMap")).isLessThan(applied.indexOf("kind: TrainJob"));
    // the served nccl-tests output was read as bench reads it: 3.85 GB/s peak busbw
    assertThat(r.results().variants().get(1).busbw()).containsEntry("all_reduce", 3.85);
    assertThat(r.results().variants().get(1).transports()).contains("NET/Socket/0");
    // judged with the node it ran on, as diagnose --job judges: a p4d.24xlarge that allocates no
    // EFA device (the catalog gives it 4); a warning, as no rank pair crossed nodes
    assertThat(r.results().variants().get(1).findings())
        .contains(new Experiment.FindingRef("efa-not-allocatable", "warn"));
    assertThat(Files.readString(out.resolve("variants/2x1/diagnosis.txt")))
        .contains(
            "node ip-10-0-1-1: instance-type p4d.24xlarge, allocatable nvidia.com/gpu none,"
                + " vpc.amazonaws.com/efa none, zone us-east-1a");
  }

  @Test
  void aFailingVariantIsRecordedWithItsDiagnosisAndTheNextOneRuns() throws Exception {
    operate(Map.of("2x1", Ending.FAIL), job -> {});
    Path out = dir.resolve("out");
    Ran r = experiment(spec("  layout: [1x2, 2x1, 1x1]\n  network: eni\n"), out, false, x -> {});

    assertThat(statuses(r.results()))
        .as(r.err() + operatorFailed.get() + seen)
        .containsExactly("1x2 ok", "2x1 failed", "1x1 ok");
    Experiment.Variant failed = r.results().variants().get(1);
    assertThat(failed.reason())
        .isEqualTo(
            "probe: TrainJob kx-2x1-probe failed: jobset failed: node-0 failed; deleted TrainJob"
                + " kx-2x1-probe, ConfigMap kx-2x1-probe-py (pod kx-2x1-probe-node-0-0 container"
                + " node exit 1)");
    // its logs were read all the same: the diagnosis beside them, the busbw they hold
    assertThat(out.resolve("variants/2x1/diagnosis.txt")).exists();
    assertThat(failed.busbw()).containsEntry("all_reduce", 3.85);
    assertThat(seen).hasSize(3).allMatch(s -> s.contains("pods=[]"));
    assertThat(client.configMaps().inNamespace(NS).list().getItems()).isEmpty();
  }

  @Test
  void anUnschedulableVariantFailsWithTheSchedulersReasonAndIsDeleted() throws Exception {
    pending = Duration.ofSeconds(5);
    operate(Map.of("1x2", Ending.UNSCHEDULABLE), job -> {});
    Path out = dir.resolve("out");
    Ran r = experiment(spec("  layout: [1x2, 1x1]\n  network: eni\n"), out, false, x -> {});

    assertThat(statuses(r.results())).containsExactly("1x2 failed", "1x1 ok");
    assertThat(r.results().variants().get(0).reason())
        .isEqualTo(
            "probe: TrainJob kx-1x2-probe not started: pod kx-1x2-probe-node-0-0 Unschedulable:"
                + " 0/1 nodes are available: 1 Insufficient nvidia.com/gpu. after 5 s; deleted"
                + " TrainJob kx-1x2-probe, ConfigMap kx-1x2-probe-py (--on-timeout keep keeps it)");
    assertThat(Files.readString(out.resolve("variants/1x2/probe/events.txt")))
        .isEqualTo(
            "2026-11-25T10:00:00Z Warning FailedScheduling Pod/kx-1x2-probe-node-0-0: 0/1 nodes are"
                + " available: 1 Insufficient nvidia.com/gpu.\n");
    // the next variant found the cluster clean
    assertThat(seen.get(1))
        .startsWith("kx-1x1-probe: configmaps=[kx-1x1-probe-py] jobs=[kx-1x1-probe]");
  }

  @Test
  void anInterruptedExperimentResumesWithTheVariantsItHadNotFinished() throws Exception {
    AtomicReference<ExperimentRun> first = new AtomicReference<>();
    List<String> jobs = new CopyOnWriteArrayList<>();
    operate(
        Map.of("2x1", Ending.HANG_ONCE),
        job -> {
          jobs.add(job);
          if (job.equals("kx-2x1-probe") && first.get() != null) {
            // Ctrl-C while the second variant runs, from another thread as the shutdown hook does
            Thread t = new Thread(() -> first.get().interrupt());
            t.start();
          }
        });
    Path out = dir.resolve("out");
    Path spec = spec("  layout: [1x2, 2x1, 1x1]\n  network: eni\n");
    Ran r = experiment(spec, out, false, first::set);

    assertThat(r.run().interrupted()).isTrue();
    Experiment afterCtrlC = Experiment.read(out);
    assertThat(statuses(afterCtrlC)).containsExactly("1x2 ok", "2x1 skipped", "1x1 skipped");
    // the running job was deleted with its ConfigMap
    assertThat(client.genericKubernetesResources(TRAIN_JOBS).inNamespace(NS).list().getItems())
        .isEmpty();
    assertThat(client.configMaps().inNamespace(NS).list().getItems()).isEmpty();

    first.set(null);
    Ran again = experiment(spec, out, true, x -> {});
    assertThat(again.err()).contains("[1/3] 1x2: finished before, kept (--resume)");
    assertThat(jobs)
        .containsExactly("kx-1x2-probe", "kx-2x1-probe", "kx-2x1-probe", "kx-1x1-probe");
  }

  @Test
  void aLintErrorStopsTheVariantBeforeAnythingIsApplied() throws Exception {
    operate(Map.of(), job -> {});
    Path out = dir.resolve("out");
    Path spec =
        spec(
            """
              - layout: 1x2
                network: eni
                env: {NCCL_ALGO: "true"}
              - layout: 1x1
                network: eni
            """);
    Ran r = experiment(spec, out, false, x -> {});

    assertThat(statuses(r.results())).containsExactly("1x2-NCCL_ALGO=true failed", "1x1 ok");
    assertThat(r.results().variants().get(0).reason())
        .startsWith("probe: not applied, lint found error env-invalid (")
        .contains("NCCL_ALGO=true is not a value NCCL_ALGO accepts");
    assertThat(Files.readString(out.resolve("variants/1x2-NCCL_ALGO=true/probe/lint.txt")))
        .contains("ERROR env-invalid: ", "  fix  ");
    // the cluster never saw it: the only job was the second variant's, alone
    assertThat(seen)
        .containsExactly("kx-1x1-probe: configmaps=[kx-1x1-probe-py] jobs=[kx-1x1-probe] pods=[]");
  }
}
