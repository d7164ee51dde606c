package io.topolens.kube.model;

import io.topolens.model.Evidence;
import java.util.List;
import java.util.Optional;

/**
 * One job (or Trainer runtime) read from a manifest: its pod groups and its kind's settings.
 *
 * @param trainer TrainJob settings, else null
 * @param mpi MPIJob or MPI runtime settings, else null
 * @param placeholders values left as {@code ${NAME}} that topolens could not judge
 * @param hints the model size and CPU offload its commands, env or ConfigMaps name
 * @param unknownFields fields the kind does not have where they are written (misplaced pod fields,
 *     typos)
 */
public record Workload(
    String file,
    WorkloadKind kind,
    String name,
    String namespace,
    List<PodGroup> groups,
    TrainerSpec trainer,
    MpiSpec mpi,
    List<Located<String>> placeholders,
    TrainingHints hints,
    List<Located<String>> unknownFields,
    Evidence evidence) {

  public Workload {
    groups = List.copyOf(groups);
    placeholders = List.copyOf(placeholders);
    unknownFields = List.copyOf(unknownFields);
  }

  /** The groups that run training ranks. */
  public List<PodGroup> rankGroups() {
    return groups.stream().filter(PodGroup::ranks).toList();
  }

  public Optional<PodGroup> group(String role) {
    return groups.stream().filter(g -> g.role().equals(role)).findFirst();
  }

  /** Pods that run ranks, in all; empty when a replica count is unknown. */
  public java.util.OptionalInt rankPods() {
    int n = 0;
    for (PodGroup g : rankGroups()) {
      if (g.count().isEmpty()) {
        return java.util.OptionalInt.empty();
      }
      n += g.count().getAsInt();
    }
    return java.util.OptionalInt.of(n);
  }

  /** {@code TrainJob llama-3-8b} */
  public String label() {
    return kind.kind() + " " + name;
  }
}
