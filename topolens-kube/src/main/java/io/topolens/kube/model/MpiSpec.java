package io.topolens.kube.model;

/**
 * MPI settings of an MPIJob or of a Trainer runtime's {@code mlPolicy.mpi}.
 *
 * @param launcherCreationPolicy {@code launcherCreationPolicy} (MPIJob v2beta1), or null
 * @param launcherWaitsForWorkers for a Trainer runtime: the launcher job {@code dependsOn} the node
 *     job being Ready; null when not a runtime
 */
public record MpiSpec(
    Located<Integer> slotsPerWorker,
    Located<String> launcherCreationPolicy,
    Located<Boolean> launcherWaitsForWorkers) {}
