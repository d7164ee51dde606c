package io.topolens.kube.model;

import io.topolens.model.Evidence;

/**
 * One environment variable a process gets.
 *
 * @param value null when it comes from {@code valueFrom} or {@code mpirun -x NAME} (the launcher's
 *     own value)
 * @param origin where it is set: {@code env} of a container or {@code mpirun -x}
 */
public record EnvVar(String name, String value, String origin, Evidence evidence) {}
