package io.topolens.kube.run;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a run goes.
 *
 * @param namespace where the job is created (the context's when null)
 * @param timeout how long to wait for the job to end; the run then stops as {@code onTimeout} says
 * @param poll how often job and pods are read
 * @param onInterrupt what Ctrl-C does to the job
 * @param onTimeout what a timeout does to the job
 * @param deleteWhenDone delete the job (and what topolens created with it) after it ends by itself
 * @param logDir where pod logs, the pod-to-node map and run.json go
 * @param pendingTimeout how long a pod may stay unscheduled or unable to start (Unschedulable,
 *     ImagePullBackOff), or the job without pods, before the run stops as {@code onTimeout} says;
 *     null waits up to {@code timeout}
 */
public record RunOptions(
    String namespace,
    Duration timeout,
    Duration poll,
    Cleanup onInterrupt,
    Cleanup onTimeout,
    boolean deleteWhenDone,
    Path logDir,
    Duration pendingTimeout) {

  /** Options without a pending timeout: only {@code timeout} stops a job whose pods never start. */
  public RunOptions(
      String namespace,
      Duration timeout,
      Duration poll,
      Cleanup onInterrupt,
      Cleanup onTimeout,
      boolean deleteWhenDone,
      Path logDir) {
    this(namespace, timeout, poll, onInterrupt, onTimeout, deleteWhenDone, logDir, null);
  }
}
