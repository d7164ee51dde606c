package io.topolens.kube.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Pods of one role in a job: a replicated job, a replica type ({@code Master}, {@code Worker},
 * {@code Launcher}), or a single pod.
 *
 * @param role {@code node}, {@code Worker}, {@code Launcher}, ...
 * @param replicas how many pods; the value is null when unknown (a placeholder)
 * @param ranks whether its pods run training ranks (an MPI launcher does not)
 * @param processes what the manifest says about processes per pod or in all
 * @param extraEnv environment its ranks get from elsewhere ({@code mpirun -x} on the launcher)
 */
public record PodGroup(
    String role,
    Located<Integer> replicas,
    PodTemplate pod,
    boolean ranks,
    List<ProcessCount> processes,
    List<EnvVar> extraEnv) {

  public PodGroup {
    processes = List.copyOf(processes);
    extraEnv = List.copyOf(extraEnv);
  }

  /** The environment of its training processes: the main container's env, then {@code extraEnv}. */
  public List<EnvVar> rankEnv() {
    List<EnvVar> all = new ArrayList<>();
    pod.main().ifPresent(c -> all.addAll(c.env()));
    all.addAll(extraEnv);
    return all;
  }

  /** The replica count, when known. */
  public java.util.OptionalInt count() {
    return replicas == null || replicas.value() == null
        ? java.util.OptionalInt.empty()
        : java.util.OptionalInt.of(replicas.value());
  }
}
