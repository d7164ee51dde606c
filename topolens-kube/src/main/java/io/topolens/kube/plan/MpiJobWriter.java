package io.topolens.kube.plan;

import io.topolens.kube.yaml.YamlList;
import io.topolens.kube.yaml.YamlMap;
import java.util.List;
import java.util.Map;

/**
 * An MPI Operator MPIJob (kubeflow.org/v2beta1) running nccl-tests: the launcher waits for the
 * workers, each worker pod holds its GPUs and EFA.
 */
final class MpiJobWriter extends JobWriter {
  MpiJobWriter(Sizing s) {
    super(s);
  }

  @Override
  List<YamlMap> write() {
    String image = parts.ncclTestsImage();
    YamlMap launcher =
        new YamlMap()
            .put("replicas", 1)
            .put("restartPolicy", "OnFailure")
            .put(
                "template",
                new YamlMap()
                    .put(
                        "spec",
                        new YamlMap()
                            .put(
                                "containers",
                                YamlList.of(
                                    parts.mpirunContainer(
                                        "launcher",
                                        image,
                                        parts.ncclTestsImageWhy(),
                                        "The launcher only runs mpirun: no GPU, no EFA.")))));
    YamlMap pod =
        parts.rankPod(
            Map.of(
                "training.kubeflow.org/job-name",
                s.name,
                "training.kubeflow.org/job-role",
                "worker"));
    pod.put(
        "containers",
        YamlList.of(
            new YamlMap()
                .put("name", "worker")
                .put("image", image)
                .put("env", parts.ncclEnv(), parts.envWhy())
                .put("resources", parts.resources())
                .put("volumeMounts", parts.mounts())),
        "No command: the MPI Operator starts sshd (/usr/sbin/sshd -De) in workers that set none.");
    YamlMap worker =
        new YamlMap()
            .put(
                "replicas",
                s.pods,
                s.podsPerNode == 1 ? "One worker per node." : s.podsPerNode + " workers per node.")
            .put("template", new YamlMap().put("spec", pod));
    YamlMap spec =
        new YamlMap()
            .put(
                "slotsPerWorker",
                s.gpusPerPod,
                "Slots per worker in the hostfile = its GPUs; mpirun -N matches it (kubeflow/mpi-operator#680).")
            .put(
                "launcherCreationPolicy",
                "WaitForWorkersReady",
                "The launcher is created only when every worker is Ready, so mpirun never meets a worker whose sshd is not up yet (kubeflow/mpi-operator#386, #482).")
            .put(
                "runPolicy",
                new YamlMap().put("cleanPodPolicy", "None").put("backoffLimit", 1),
                "Worker pods stay after the run so their logs can be read; one retry, so a broken fabric fails fast instead of looping.")
            .put("mpiReplicaSpecs", new YamlMap().put("Launcher", launcher).put("Worker", worker));
    return List.of(
        new YamlMap()
            .put("apiVersion", "kubeflow.org/v2beta1")
            .put("kind", "MPIJob")
            .put("metadata", parts.metadata(s.name))
            .put("spec", spec));
  }
}
