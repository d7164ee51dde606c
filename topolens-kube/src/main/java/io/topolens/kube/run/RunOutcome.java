package io.topolens.kube.run;

import java.nio.file.Path;
import java.util.List;

/**
 * How a run ended and what it collected.
 *
 * @param status how the job (or the run) ended
 * @param message one line: what happened, and what was done with the job
 * @param pods every pod seen, with its node and log files
 * @param logDir the folder holding the logs, {@code nodes.txt} and {@code run.json}
 * @param nodeMap {@code nodes.txt}: hostname and node per line, for {@code diagnose --node-map}
 */
public record RunOutcome(
    Status status, String message, List<PodRecord> pods, Path logDir, Path nodeMap) {

  public RunOutcome {
    pods = List.copyOf(pods);
  }

  /** How a run ended. */
  public enum Status {
    SUCCEEDED,
    FAILED,
    TIMED_OUT,
    /** A pod stayed unscheduled or unable to start past {@link RunOptions#pendingTimeout()}. */
    PENDING,
    INTERRUPTED;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }
  }
}
