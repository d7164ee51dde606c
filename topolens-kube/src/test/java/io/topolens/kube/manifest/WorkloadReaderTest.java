package io.topolens.kube.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.kube.Examples;
import io.topolens.kube.model.EnvVar;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.OffloadMode;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.ProcessCount;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.TrainerRelease;
import io.topolens.kube.model.Workload;
import io.topolens.kube.model.WorkloadKind;
import io.topolens.nccl.InputProblem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the reader makes of the seeds'-shaped and AWS-shaped manifests in examples/k8s/lint. */
class WorkloadReaderTest {

  private static WorkloadReader.Result read(String example, Map<String, String> vars)
      throws InputProblem {
    return new WorkloadReader().read(new ManifestReader(vars).read(Examples.lint(example)));
  }

  private static Workload only(String example) throws InputProblem {
    WorkloadReader.Result r = read(example, Map.of());
    assertThat(r.problems()).isEmpty();
    assertThat(r.workloads()).hasSize(1);
    return r.workloads().get(0);
  }

  /** "source=value@line" for each process count. */
  private static List<String> procs(PodGroup g) {
    List<String> out = new ArrayList<>();
    for (ProcessCount p : g.processes()) {
      out.add(
          p.source()
              + "="
              + p.value().value()
              + (p.perPod() ? "" : " total")
              + "@"
              + p.value().evidence().line());
    }
    return out;
  }

  @Test
  void seedTrainJobPodPerGpu() throws InputProblem {
    Workload w = only("seed-trainjob-pod-per-gpu.yaml");
    assertThat(w.kind()).isEqualTo(WorkloadKind.TRAIN_JOB);
    assertThat(w.name()).isEqualTo("llama-3-8b");
    PodGroup g = w.group("node").orElseThrow();
    assertThat(g.count().getAsInt()).isEqualTo(4);
    assertThat(g.pod().gpus()).contains(1L);
    assertThat(g.pod().main().orElseThrow().resources().count(Resources.EFA)).contains(1L);
    assertThat(g.pod().instanceTypes()).extracting(Located::value).containsExactly("p4d.24xlarge");
    assertThat(g.pod().volume("dshm").orElseThrow().sizeLimit().value().text()).isEqualTo("64Gi");
    assertThat(g.pod().main().orElseThrow().mounts())
        .extracting(m -> m.path())
        .containsExactly("/dev/shm");
    assertThat(procs(g))
        .containsExactly("trainer.numProcPerNode=1@31", "torchrun --nproc_per_node=1@46");
    assertThat(g.rankEnv())
        .extracting(EnvVar::name)
        .containsExactly("NCCL_P2P_LEVEL", "PYTORCH_CUDA_ALLOC_CONF");
    assertThat(w.trainer().runtimeRef().value()).isEqualTo("torch-distributed");
    assertThat(w.trainer().runtime()).isNull();
    assertThat(w.trainer().releaseFields())
        .extracting(Located::value)
        .containsExactly("podTemplateOverrides (v2.1 only)");
    assertThat(w.hints().params().value()).isEqualTo(8e9);
    assertThat(w.hints().params().evidence().line()).isEqualTo(47);
    assertThat(w.hints().offload()).isNull();
  }

  @Test
  void placeholdersAreUnknownNotErrors() throws InputProblem {
    Workload w = only("seed-trainjob-g6e-envsubst.yaml");
    PodGroup g = w.group("node").orElseThrow();
    assertThat(g.count()).isEmpty();
    assertThat(g.pod().gpus()).isEmpty();
    assertThat(g.pod().instanceTypes()).extracting(Located::value).containsExactly((String) null);
    assertThat(w.placeholders())
        .extracting(p -> p.value() + "@" + p.evidence().line())
        .containsExactlyInAnyOrder(
            "${INSTANCE_TYPE}@17", "${NODE_NUM}@31", "${GPU_PER_NODE}@49", "${EFA_PER_NODE}@50");
    assertThat(procs(g))
        .containsExactly("trainer.numProcPerNode=auto@32", "torchrun --nproc_per_node=gpu@43");
  }

  @Test
  void varsFillThePlaceholders() throws InputProblem {
    WorkloadReader.Result r =
        read(
            "seed-trainjob-g6e-envsubst.yaml",
            Map.of(
                "INSTANCE_TYPE",
                "g6e.12xlarge",
                "NODE_NUM",
                "4",
                "GPU_PER_NODE",
                "4",
                "EFA_PER_NODE",
                "1"));
    PodGroup g = r.workloads().get(0).group("node").orElseThrow();
    assertThat(g.count().getAsInt()).isEqualTo(4);
    assertThat(g.pod().gpus()).contains(4L);
    assertThat(g.pod().instanceTypes()).extracting(Located::value).containsExactly("g6e.12xlarge");
    assertThat(r.workloads().get(0).placeholders()).isEmpty();
  }

  @Test
  void awsNcclTestsMpiJob() throws InputProblem {
    Workload w = only("aws-nccl-tests-p5.yaml");
    assertThat(w.kind()).isEqualTo(WorkloadKind.MPI_JOB);
    PodGroup launcher = w.group("Launcher").orElseThrow();
    PodGroup worker = w.group("Worker").orElseThrow();
    assertThat(launcher.ranks()).isFalse();
    assertThat(worker.count().getAsInt()).isEqualTo(2);
    assertThat(worker.pod().gpus()).contains(8L);
    assertThat(procs(worker))
        .containsExactly("slotsPerWorker=8@11", "mpirun -np=16 total@31", "mpirun -N=8@33");
    assertThat(worker.extraEnv())
        .extracting(e -> e.name() + "=" + e.value() + "@" + e.evidence().line())
        .containsExactly(
            "PATH=null@38",
            "LD_LIBRARY_PATH=null@40",
            "FI_PROVIDER=efa@42",
            "FI_EFA_FORK_SAFE=1@44",
            "NCCL_DEBUG=INFO@46",
            "NCCL_BUFFSIZE=8388608@48",
            "NCCL_P2P_NET_CHUNKSIZE=524288@50");
    assertThat(w.mpi().launcherCreationPolicy()).isNull();
    assertThat(worker.pod().volume("shmem").orElseThrow().memoryBacked()).isTrue();
  }

  @Test
  void trainJobTakesItsRuntimeFromTheSameFiles() throws InputProblem {
    WorkloadReader.Result r = read("trainer-runtime-efa.yaml", Map.of());
    assertThat(r.workloads())
        .extracting(Workload::label)
        .containsExactly("ClusterTrainingRuntime torch-efa", "TrainJob llama-70b");
    assertThat(r.skipped()).extracting(Located::value).containsExactly("ConfigMap ds-config");
    Workload job = r.workloads().get(1);
    assertThat(job.trainer().runtime().name()).isEqualTo("torch-efa");
    Resources res = job.group("node").orElseThrow().pod().main().orElseThrow().resources();
    assertThat(res.count(Resources.GPU)).contains(8L);
    assertThat(res.count(Resources.EFA)).contains(32L);
    assertThat(job.hints().params().value()).isEqualTo(70e9);
    assertThat(job.hints().offload().value()).isEqualTo(OffloadMode.PARAMS);
    assertThat(job.hints().offload().evidence().line()).isEqualTo(69);
    Resources replaced =
        new WorkloadReader(new TrainerRelease(2, 2))
            .read(new ManifestReader().read(Examples.lint("trainer-runtime-efa.yaml")))
            .workloads()
            .get(1)
            .group("node")
            .orElseThrow()
            .pod()
            .main()
            .orElseThrow()
            .resources();
    assertThat(replaced.names(Resources.EFA)).isFalse();
    assertThat(replaced.count(Resources.GPU)).contains(8L);
  }

  @Test
  void pytorchJobMasterAndWorkers() throws InputProblem {
    Workload w = only("seed-pytorchjob-master-no-gpu.yaml");
    assertThat(w.groups()).extracting(PodGroup::role).containsExactly("Master", "Worker");
    assertThat(w.group("Master").orElseThrow().pod().gpus()).contains(0L);
    assertThat(w.group("Worker").orElseThrow().pod().gpus()).contains(1L);
    assertThat(w.rankPods().getAsInt()).isEqualTo(3);
  }

  @Test
  void misplacedRuntimeFieldsAreKeptAsUnknown() throws InputProblem {
    Workload w = only("seed-runtime-edited.yaml");
    assertThat(w.unknownFields())
        .extracting(f -> f.value() + "@" + f.evidence().line())
        .containsExactly(
            "spec.template.spec.shareProcessNamespace@11",
            "spec.template.spec.hostIPC@12",
            "spec.template.spec.containers@13");
    assertThat(w.groups()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "bad-unknown-version.yaml|:1: unknown version trainer.kubeflow.org/v1 of TrainJob; topolens reads trainer.kubeflow.org/v1alpha1",
        "bad-missing-runtime.yaml|:5: TrainJob no-runtime has no spec.runtimeRef.name (the runtime it runs on)",
        "bad-numnodes.yaml|:9: trainer.numNodes must be an integer, not \"two\""
      })
  void missingOrWrongFieldsAreOneLineProblems(String example, String message) throws InputProblem {
    WorkloadReader.Result r = read(example, Map.of());
    assertThat(r.workloads()).isEmpty();
    assertThat(r.problems())
        .extracting(Throwable::getMessage)
        .containsExactly(Examples.lint(example) + message);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "apiVersion: v1\\nkind: Service\\nmetadata: {name: s}\\n|",
        "apiVersion: example.com/v1\\nkind: Widget\\nmetadata: {name: w}\\n|m.yaml:2: unknown kind Widget (example.com/v1); topolens reads TrainJob, TrainingRuntime, ClusterTrainingRuntime, PyTorchJob, MPIJob, JobSet, Job and Pod, and skips core Kubernetes kinds",
        "apiVersion: kubeflow.org/v1\\nkind: TFJob\\nmetadata: {name: t}\\n|m.yaml:1: unknown kind TFJob (kubeflow.org/v1); topolens reads TrainJob, TrainingRuntime, ClusterTrainingRuntime, PyTorchJob, MPIJob, JobSet, Job, Pod",
        "kind: Pod\\nmetadata: {name: p}\\n|m.yaml:1: document 1 has no apiVersion; not a Kubernetes manifest",
        "apiVersion: v1\\nkind: Pod\\nmetadata: {name: p}\\nspec: {}\\n|m.yaml:4: pod template has no containers",
        "apiVersion: v1\\nkind: Pod\\nmetadata: {name: p}\\nspec:\\n  containers:\\n  - name: c\\n    env:\\n    - name: NCCL_DEBUG\\n      value: 1\\n|m.yaml:9: env NCCL_DEBUG value must be a string, not 1 (quote it: \"1\")",
        "apiVersion: kubeflow.org/v2beta1\\nkind: MPIJob\\nmetadata: {name: m}\\nspec:\\n  mpiReplicaSpecs: {}\\n|m.yaml:5: MPIJob m has no spec.mpiReplicaSpecs.Worker"
      })
  void kindsAndFields(String yaml, String problem) throws InputProblem {
    WorkloadReader.Result r =
        new WorkloadReader()
            .read(
                new ManifestReader()
                    .parse("m.yaml", yaml.replace("\\n", "\n").getBytes(StandardCharsets.UTF_8)));
    if (problem == null) {
      assertThat(r.problems()).isEmpty();
      assertThat(r.skipped()).hasSize(1);
    } else {
      assertThat(r.problems()).extracting(Throwable::getMessage).containsExactly(problem);
    }
  }
}
