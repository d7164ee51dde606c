package io.topolens.kube.collect;

/**
 * A log that could not be read: the pod never started its container, the pod or its node is gone,
 * or the kubelet no longer keeps it.
 *
 * @param container the container, with {@code (previous)} for a restarted container's last attempt
 */
public record GoneLog(String pod, String container, String reason) {
  @Override
  public String toString() {
    return pod + "/" + container + " (" + reason + ")";
  }
}
