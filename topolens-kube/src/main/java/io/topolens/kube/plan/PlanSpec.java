package io.topolens.kube.plan;

import io.topolens.kube.model.OffloadMode;
import io.topolens.kube.model.Quantity;
import io.topolens.kube.model.TrainerRelease;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a user asks {@code topolens plan} for; null fields take the planner's defaults, each with
 * its reason.
 *
 * @param instance the instance type (required)
 * @param nodes how many nodes (required, at least 1)
 * @param gpusPerPod GPUs per pod; null for all the instance has (one pod per node)
 * @param network EFA or ENI (TCP); null picks EFA when the type has it and the job has 2+ pods
 * @param kind the job kind; null picks TrainJob for training, MPIJob for nccl-tests
 * @param command a shell command line for the training processes; null for the default
 * @param runtime the Trainer runtime a training TrainJob names (default torch-distributed)
 * @param zone a zone to pin the nodes to ({@code topology.kubernetes.io/zone}), or null
 * @param sameZone keep all pods in one zone, whichever it is
 * @param nodeLabels extra node labels to select on (a placement-group node pool's label)
 * @param tolerations extra tolerations, {@code KEY[=VALUE][:EFFECT]}
 * @param shm the /dev/shm size; null for the policy's
 * @param offload what is offloaded to host memory, for the memory check; null for none
 * @param params model parameters, for the memory check; null when not known
 * @param podsPerNode pods on each node; null for as many as the node's GPUs make (its GPUs over
 *     {@code gpusPerPod}); fewer leaves GPUs of the node unused, as an experiment's 1x4 on an 8-GPU
 *     node does
 */
public record PlanSpec(
    String instance,
    int nodes,
    Integer gpusPerPod,
    Network network,
    JobKind kind,
    Workload workload,
    String image,
    String command,
    String name,
    String namespace,
    String runtime,
    TrainerRelease trainer,
    String zone,
    boolean sameZone,
    Map<String, String> nodeLabels,
    List<String> tolerations,
    Quantity shm,
    OffloadMode offload,
    Double params,
    Integer podsPerNode) {

  public PlanSpec {
    nodeLabels =
        nodeLabels == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(nodeLabels));
    tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    workload = workload == null ? Workload.TRAIN : workload;
    trainer = trainer == null ? TrainerRelease.V2_3 : trainer;
  }

  /** The inter-node network. */
  public enum Network {
    EFA,
    ENI;

    public static Network parse(String s) {
      return valueOf(s.strip().toUpperCase(Locale.ROOT));
    }
  }

  /** The job kinds plan writes. */
  public enum JobKind {
    TRAINJOB,
    PYTORCHJOB,
    MPIJOB;

    public static JobKind parse(String s) {
      return valueOf(s.strip().toUpperCase(Locale.ROOT));
    }
  }

  /** What the job runs. */
  public enum Workload {
    TRAIN,
    NCCL_TESTS;

    public static Workload parse(String s) {
      return valueOf(s.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    public String label() {
      return this == TRAIN ? "train" : "nccl-tests";
    }
  }
}
