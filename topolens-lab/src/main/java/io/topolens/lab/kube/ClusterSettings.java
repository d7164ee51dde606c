package io.topolens.lab.kube;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How an experiment reaches its cluster and how long it waits, as {@code topolens experiment}'s
 * options give them.
 *
 * @param kubeconfig the kubeconfig file, or null for $KUBECONFIG then ~/.kube/config
 * @param context the kubeconfig context, or null for the spec's {@code context:}, then the current
 * @param namespace the namespace, or null for the spec's {@code namespace:}, then the context's
 * @param pendingTimeout how long a variant's pods may stay unscheduled before it fails
 * @param poll how often jobs and pods are read
 * @param dryRun write and print each variant's manifests, apply nothing
 */
public record ClusterSettings(
    Path kubeconfig,
    String context,
    String namespace,
    Duration pendingTimeout,
    Duration poll,
    boolean dryRun) {

  /** The defaults: the current context, 15 minutes pending, a read every 5 seconds. */
  public static ClusterSettings defaults() {
    return new ClusterSettings(
        null, null, null, Duration.ofMinutes(15), Duration.ofSeconds(5), false);
  }
}
