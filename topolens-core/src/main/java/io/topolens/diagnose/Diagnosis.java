package io.topolens.diagnose;

import io.topolens.model.Job;
import java.util.List;

/** A job and what the rules found, most severe first. */
public record Diagnosis(Job job, List<Finding> findings) {

  public boolean hasErrors() {
    return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
  }

  /** The same diagnosis with findings below {@code min} left out. */
  public Diagnosis atLeast(Severity min) {
    return new Diagnosis(
        job, findings.stream().filter(f -> f.severity().compareTo(min) >= 0).toList());
  }
}
