package io.topolens.kube.plan;

import io.topolens.kube.yaml.YamlList;
import io.topolens.kube.yaml.YamlMap;
import java.util.List;
import java.util.Map;

/**
 * A Kubeflow Trainer TrainJob (trainer.kubeflow.org/v1alpha1, v2.3 semantics): resources in {@code
 * trainer.resourcesPerNode}, pod settings in {@code runtimePatches}; for nccl-tests also the MPI
 * TrainingRuntime it names, whose launcher waits for the node pods.
 */
final class TrainJobWriter extends JobWriter {
  static final String API = "trainer.kubeflow.org/v1alpha1";
  static final String MANAGER = "topolens.io/plan";

  TrainJobWriter(Sizing s) {
    super(s);
  }

  @Override
  List<YamlMap> write() {
    boolean mpi = s.spec.workload() == PlanSpec.Workload.NCCL_TESTS;
    return mpi ? List.of(runtime(), job(true)) : List.of(job(false));
  }

  private Map<String, String> podLabels() {
    return Map.of("jobset.sigs.k8s.io/jobset-name", s.name);
  }

  private YamlMap job(boolean mpi) {
    YamlMap doc =
        new YamlMap()
            .put("apiVersion", API)
            .put("kind", "TrainJob")
            .put("metadata", parts.metadata(s.name));
    YamlMap spec = new YamlMap();
    String runtime =
        mpi ? s.name + "-mpi" : s.spec.runtime() == null ? "torch-distributed" : s.spec.runtime();
    spec.put(
        "runtimeRef",
        new YamlMap()
            .put("apiGroup", "trainer.kubeflow.org")
            .put("kind", mpi ? "TrainingRuntime" : "ClusterTrainingRuntime")
            .put("name", runtime),
        mpi
            ? "The MPI runtime above: its launcher runs mpirun once the node pods are Ready."
            : s.spec.runtime() == null
                ? "Trainer's own torch runtime (manifests/base/runtimes): torchrun with the PET_* rendezvous variables in container node."
                : "Asked for (--runtime).");
    YamlMap trainer = new YamlMap();
    trainer.put(
        "numNodes",
        s.pods,
        s.podsPerNode == 1
            ? "One pod per node: " + s.pods + " pods on " + s.spec.nodes() + " nodes."
            : s.pods + " pods: " + s.podsPerNode + " per node on " + s.spec.nodes() + " nodes.");
    if (!mpi) {
      trainer.put(
          "numProcPerNode",
          s.gpusPerPod,
          "One process per GPU of the pod (an integer since Trainer v2.2; 'auto' ran one process on 8 GPUs in kubeflow/trainer#1992).");
      trainer.put(
          "image",
          s.spec.image() == null ? Commands.TRAIN_IMAGE : s.spec.image(),
          s.spec.image() == null
              ? "AWS Deep Learning Container for EC2, the seeds' image: PyTorch with the EFA installer and aws-ofi-nccl inside."
              : "Asked for (--image).");
      trainer.put("command", Commands.train(s), Commands.trainWhy(s));
      trainer.put("env", parts.ncclEnv(), parts.envWhy());
      trainer.put(
          "resourcesPerNode",
          parts.resources(),
          "GPUs, EFA, huge pages and memory together here: Trainer before v2.3.0 replaced the runtime's resources with these instead of merging them (kubeflow/trainer#3602).");
    }
    spec.put("trainer", trainer);
    if (!mpi) {
      YamlMap pod = parts.rankPod(podLabels());
      pod.put(
          "containers",
          YamlList.of(new YamlMap().put("name", "node").put("volumeMounts", parts.mounts())),
          "Container node is the trainer's; its env and resources are set in trainer (env, resourcesPerNode), so the patch only adds the /dev/shm mount.");
      YamlMap template =
          new YamlMap()
              .put(
                  "metadata",
                  new YamlMap()
                      .put("annotations", new YamlMap().put("karpenter.sh/do-not-disrupt", "true")),
                  "Karpenter does not consolidate or expire a node while a pod of this job runs on it; without Karpenter the annotation does nothing.")
              .put("spec", pod);
      YamlMap node =
          new YamlMap()
              .put("name", "node")
              .put("template", new YamlMap().put("spec", new YamlMap().put("template", template)));
      spec.put(
          "runtimePatches",
          YamlList.of(
              new YamlMap()
                  .put("manager", MANAGER)
                  .put(
                      "trainingRuntimeSpec",
                      new YamlMap()
                          .put(
                              "template",
                              new YamlMap()
                                  .put(
                                      "spec",
                                      new YamlMap().put("replicatedJobs", YamlList.of(node)))))),
          "Pod settings go in runtimePatches (Trainer v2.2 and later; v2.1 had podTemplateOverrides, v2.0 podSpecOverrides).");
    }
    doc.put("spec", spec);
    return doc;
  }

  /**
   * The MPI runtime for nccl-tests: node pods run sshd; the launcher runs mpirun when they are
   * Ready.
   */
  private YamlMap runtime() {
    String image = parts.ncclTestsImage();
    YamlMap doc =
        new YamlMap()
            .put("apiVersion", API)
            .put("kind", "TrainingRuntime")
            .put("metadata", parts.metadata(s.name + "-mpi"));
    YamlMap spec = new YamlMap();
    spec.put(
        "mlPolicy",
        new YamlMap()
            .put("numNodes", s.pods)
            .put(
                "mpi",
                new YamlMap()
                    .put(
                        "numProcPerNode",
                        s.gpusPerPod,
                        "Slots per node pod in the hostfile = its GPUs: one rank per GPU.")
                    .put("mpiImplementation", "OpenMPI")
                    .put("sshAuthMountPath", "/root/.ssh")
                    .put(
                        "runLauncherAsNode",
                        false,
                        "The launcher only starts mpirun; it holds no GPU.")));
    YamlMap nodePod =
        parts.rankPod(
            Map.of(
                "jobset.sigs.k8s.io/jobset-name",
                s.name,
                "jobset.sigs.k8s.io/replicatedjob-name",
                "node"));
    nodePod.put(
        "containers",
        YamlList.of(
            new YamlMap()
                .put("name", "node")
                .put("image", image, parts.ncclTestsImageWhy())
                .put(
                    "command",
                    YamlList.of("/usr/sbin/sshd", "-De"),
                    "Node pods wait for the launcher's ssh connections; mpirun starts the ranks there.")
                .put("env", parts.ncclEnv(), parts.envWhy())
                .put("resources", parts.resources())
                .put(
                    "readinessProbe",
                    new YamlMap()
                        .put("tcpSocket", new YamlMap().put("port", 22))
                        .put("initialDelaySeconds", 5),
                    "Ready once sshd listens: the launcher waits for it.")
                .put("volumeMounts", parts.mounts())));
    YamlMap launcherPod =
        new YamlMap()
            .put("containers", YamlList.of(parts.mpirunContainer("node", image, null, null)));
    YamlList jobs = new YamlList();
    jobs.add(
        new YamlMap()
            .put("name", "launcher")
            .put(
                "dependsOn",
                YamlList.of(new YamlMap().put("name", "node").put("status", "Ready")),
                "The launcher starts only when every node pod is Ready (sshd up); otherwise mpirun can fail to reach a worker (kubeflow/mpi-operator#386).")
            .put(
                "template",
                new YamlMap()
                    .put(
                        "metadata",
                        new YamlMap()
                            .put(
                                "labels",
                                new YamlMap()
                                    .put("trainer.kubeflow.org/trainjob-ancestor-step", "trainer")))
                    .put(
                        "spec",
                        new YamlMap().put("template", new YamlMap().put("spec", launcherPod)))));
    jobs.add(
        new YamlMap()
            .put("name", "node")
            .put(
                "template",
                new YamlMap()
                    .put(
                        "spec",
                        new YamlMap().put("template", new YamlMap().put("spec", nodePod)))));
    spec.put(
        "template",
        new YamlMap()
            .put(
                "spec",
                new YamlMap()
                    .put("network", new YamlMap().put("publishNotReadyAddresses", true))
                    .put(
                        "successPolicy",
                        new YamlMap()
                            .put("operator", "All")
                            .put("targetReplicatedJobs", YamlList.of("launcher")),
                        "The job succeeds when the launcher (mpirun) does.")
                    .put("replicatedJobs", jobs)));
    doc.put("spec", spec);
    return doc;
  }
}
