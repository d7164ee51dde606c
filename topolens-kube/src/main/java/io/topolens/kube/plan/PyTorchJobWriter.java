package io.topolens.kube.plan;

import io.topolens.kube.yaml.YamlList;
import io.topolens.kube.yaml.YamlMap;
import java.util.List;
import java.util.Map;

/**
 * A training-operator PyTorchJob (kubeflow.org/v1): a Master and Workers alike, each pod all its
 * GPUs.
 */
final class PyTorchJobWriter extends JobWriter {
  PyTorchJobWriter(Sizing s) {
    super(s);
  }

  @Override
  List<YamlMap> write() {
    YamlMap specs = new YamlMap();
    specs.put(
        "Master",
        replica(1),
        "The Master is rank 0 and trains like every Worker (it is counted in WORLD_SIZE), so it gets the same GPUs, EFA and memory.");
    if (s.pods > 1) {
      specs.put(
          "Worker",
          replica(s.pods - 1),
          (s.pods - 1)
              + " Workers: "
              + s.pods
              + " pods in all"
              + (s.podsPerNode == 1 ? ", one per node." : ", " + s.podsPerNode + " per node."));
    }
    YamlMap spec =
        new YamlMap()
            .put(
                "nprocPerNode",
                String.valueOf(s.gpusPerPod),
                "One process per GPU of the pod (a string in this API).")
            .put(
                "runPolicy",
                new YamlMap().put("cleanPodPolicy", "None"),
                "Pods stay after the job ends, so their logs can still be read (topolens run reads them).")
            .put("pytorchReplicaSpecs", specs);
    return List.of(
        new YamlMap()
            .put("apiVersion", "kubeflow.org/v1")
            .put("kind", "PyTorchJob")
            .put("metadata", parts.metadata(s.name))
            .put("spec", spec));
  }

  private YamlMap replica(int n) {
    YamlMap pod = parts.rankPod(Map.of("training.kubeflow.org/job-name", s.name));
    pod.put(
        "containers",
        YamlList.of(
            new YamlMap()
                .put("name", "pytorch", "The operator looks for the container named pytorch.")
                .put(
                    "image",
                    s.spec.image() == null ? Commands.TRAIN_IMAGE : s.spec.image(),
                    s.spec.image() == null
                        ? "AWS Deep Learning Container for EC2: PyTorch with the EFA installer and aws-ofi-nccl inside."
                        : "Asked for (--image).")
                .put("command", Commands.train(s), Commands.trainWhy(s))
                .put("env", parts.ncclEnv(), parts.envWhy())
                .put("resources", parts.resources())
                .put("volumeMounts", parts.mounts())));
    return new YamlMap()
        .put("replicas", n)
        .put("restartPolicy", "OnFailure")
        .put(
            "template",
            new YamlMap()
                .put(
                    "metadata",
                    new YamlMap()
                        .put(
                            "annotations",
                            new YamlMap().put("karpenter.sh/do-not-disrupt", "true")))
                .put("spec", pod));
  }
}
