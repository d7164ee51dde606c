package io.topolens.kube.collect;

import java.nio.file.Path;

/**
 * What to collect.
 *
 * @param namespace the namespace, or null for the kubeconfig context's (then {@code default})
 * @param job the job, or null to choose pods by {@code selector}
 * @param selector a label selector ({@code app=llama,role=worker}), or null with a job
 * @param parallel how many logs are fetched at once
 * @param dir the folder to write into (created)
 */
public record CollectRequest(
    String namespace, JobRef job, String selector, int parallel, Path dir) {
  public static final int DEFAULT_PARALLEL = 8;

  public CollectRequest {
    if ((job == null) == (selector == null)) {
      throw new IllegalArgumentException("a job or a selector, not both");
    }
    if (parallel < 1) {
      throw new IllegalArgumentException("parallel must be at least 1");
    }
  }
}
