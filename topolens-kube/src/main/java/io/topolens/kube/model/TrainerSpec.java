package io.topolens.kube.model;

import java.util.List;

/**
 * What a TrainJob says beyond its pods.
 *
 * @param runtimeRef {@code runtimeRef.name}
 * @param runtimeKind {@code runtimeRef.kind} (default ClusterTrainingRuntime)
 * @param runtime the runtime when it is among the files read, else null
 * @param resourcesPerNode {@code trainer.resourcesPerNode}, empty when not set
 * @param releaseFields fields that exist only in some Trainer releases: {@code
 *     podTemplateOverrides} (v2.1), {@code podSpecOverrides} (v2.0), {@code runtimePatches}
 *     (v2.2+), a string {@code numProcPerNode} (v2.0-v2.1); the value names the field
 */
public record TrainerSpec(
    Located<String> runtimeRef,
    String runtimeKind,
    Workload runtime,
    Resources resourcesPerNode,
    List<Located<String>> releaseFields) {

  public TrainerSpec {
    releaseFields = List.copyOf(releaseFields);
  }
}
