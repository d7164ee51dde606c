package io.topolens.kube.model;

import io.topolens.model.Evidence;

/**
 * A pod volume, as far as topolens cares.
 *
 * @param source the volume type key: {@code emptyDir}, {@code hostPath}, {@code
 *     persistentVolumeClaim}, ...
 * @param medium {@code emptyDir.medium} ({@code Memory} or empty)
 * @param sizeLimit {@code emptyDir.sizeLimit}, or null
 * @param hostPath {@code hostPath.path}, or null
 */
public record Volume(
    String name,
    String source,
    String medium,
    Located<Quantity> sizeLimit,
    String hostPath,
    Evidence evidence) {

  /** Whether it is memory-backed (tmpfs): a {@code Memory} emptyDir or the host's /dev/shm. */
  public boolean memoryBacked() {
    return ("emptyDir".equals(source) && "Memory".equals(medium))
        || ("hostPath".equals(source) && hostPath != null && hostPath.startsWith("/dev/shm"));
  }
}
