package io.topolens.diagnose;

import io.topolens.model.Job;
import io.topolens.steps.StepTimes;
import java.util.List;

/**
 * A job and what the rules found, most severe first.
 *
 * @param beside the inputs read beside the logs (topology, benchmarks), for the report
 * @param steps the training framework's step times the logs hold, for the report
 */
public record Diagnosis(Job job, List<Finding> findings, List<Beside> beside, StepTimes steps) {

  /** An input that is not an NCCL log, and what it was read as ("nvidia-smi output"). */
  public record Beside(String file, String kind) {}

  public Diagnosis(Job job, List<Finding> findings) {
    this(job, findings, List.of(), StepTimes.NONE);
  }

  public Diagnosis {
    findings = List.copyOf(findings);
    beside = List.copyOf(beside);
  }

  /** The same diagnosis, saying which inputs were read beside the logs. */
  public Diagnosis withBeside(List<Beside> list) {
    return new Diagnosis(job, findings, list, steps);
  }

  /** The same diagnosis with the step times its logs hold. */
  public Diagnosis withSteps(StepTimes times) {
    return new Diagnosis(job, findings, beside, times);
  }

  public boolean hasErrors() {
    return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
  }

  /** The same diagnosis with findings below {@code min} left out. */
  public Diagnosis atLeast(Severity min) {
    return new Diagnosis(
        job,
        findings.stream().filter(f -> f.severity().compareTo(min) >= 0).toList(),
        beside,
        steps);
  }
}
