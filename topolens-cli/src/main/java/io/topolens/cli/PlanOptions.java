package io.topolens.cli;

import io.topolens.kube.plan.PlanRequest;
import io.topolens.nccl.InputProblem;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The plan options, shared by {@code plan} and {@code run --plan}. */
final class PlanOptions {
  @Option(
      names = "--spec",
      paramLabel = "FILE",
      description =
          "YAML plan spec with the same keys (instance, nodes, gpusPerPod, ...); options override it.")
  Path spec;

  @Option(
      names = "--instance",
      paramLabel = "TYPE",
      description = "Instance type (p4d.24xlarge, p5.48xlarge, g6e.12xlarge, ...).")
  String instance;

  @Option(names = "--nodes", paramLabel = "N", description = "Number of nodes.")
  Integer nodes;

  @Option(
      names = "--gpus-per-pod",
      paramLabel = "all|N",
      description =
          "GPUs per pod: all (default: one pod per node) or a divisor of the instance's GPUs.")
  String gpusPerPod;

  @Option(
      names = "--network",
      paramLabel = "efa|eni",
      description =
          "Inter-node network (default: efa when the instance type has it and there are 2+ pods).")
  String network;

  @Option(
      names = "--kind",
      paramLabel = "KIND",
      description = "trainjob (default for train), pytorchjob, or mpijob (default for nccl-tests).")
  String kind;

  @Option(names = "--workload", paramLabel = "WHAT", description = "train (default) or nccl-tests.")
  String workload;

  @Option(names = "--image", paramLabel = "IMAGE", description = "Container image.")
  String image;

  @Option(
      names = "--command",
      paramLabel = "LINE",
      description = "Command line for the training processes (run by bash), or for the launcher.")
  String command;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "Job name (default: WORKLOAD-FAMILY-NODESxGPUS).")
  String name;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      description = "Namespace (default: the context's).")
  String namespace;

  @Option(
      names = "--runtime",
      paramLabel = "NAME",
      description = "ClusterTrainingRuntime a training TrainJob names (default torch-distributed).")
  String runtime;

  @Option(
      names = "--trainer-version",
      paramLabel = "VERSION",
      description = "Kubeflow Trainer release (default 2.3).")
  String trainerVersion;

  @Option(names = "--zone", paramLabel = "ZONE", description = "Pin the nodes to this zone.")
  String zone;

  @Option(
      names = "--same-zone",
      description = "Keep all pods in one zone (pod affinity on the zone).")
  Boolean sameZone;

  @Option(
      names = "--node-label",
      paramLabel = "KEY=VALUE",
      description =
          "Extra node label to select on, such as a placement-group node pool's (repeatable).")
  Map<String, String> nodeLabels;

  @Option(
      names = "--toleration",
      paramLabel = "KEY[=VALUE][:EFFECT]",
      description = "Extra toleration (repeatable).")
  List<String> tolerations;

  @Option(
      names = "--shm",
      paramLabel = "SIZE",
      description = "/dev/shm size (default: 8Gi per GPU, at least 1Gi).")
  String shm;

  @Option(
      names = "--offload",
      paramLabel = "WHAT",
      description = "CPU offload for the memory check: none, optimizer or params.")
  String offload;

  @Option(
      names = "--params",
      paramLabel = "N",
      description = "Model parameters for the memory check (8e9, 8B, 70B).")
  String params;

  @Option(
      names = "--pods-per-node",
      paramLabel = "N",
      description =
          "Pods on each node (default: the node's GPUs over --gpus-per-pod); fewer leaves GPUs unused.")
  Integer podsPerNode;

  /** The request: the spec file, if any, overridden by the options given. */
  PlanRequest request() throws InputProblem {
    PlanRequest opts =
        new PlanRequest(
            instance,
            nodes,
            gpusPerPod,
            network,
            kind,
            workload,
            image,
            command,
            name,
            namespace,
            runtime,
            trainerVersion,
            zone,
            sameZone,
            nodeLabels == null ? null : new LinkedHashMap<>(nodeLabels),
            tolerations,
            shm,
            offload,
            params,
            podsPerNode);
    return spec == null ? opts : PlanRequest.read(spec).overriddenBy(opts);
  }

  /** Whether any plan option was given (for run, which also takes a file). */
  boolean any() {
    return spec != null || instance != null || nodes != null;
  }
}
