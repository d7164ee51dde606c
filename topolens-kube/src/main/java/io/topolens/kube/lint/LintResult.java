package io.topolens.kube.lint;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.Workload;
import java.util.List;

/**
 * What {@code topolens lint} found.
 *
 * @param files the files read, as named
 * @param skipped documents of kinds that are not jobs
 * @param problems one line per unreadable file or document (file:line: problem)
 */
public record LintResult(
    List<String> files,
    List<Workload> workloads,
    List<Located<String>> skipped,
    List<Finding> findings,
    List<String> problems) {

  public boolean hasErrors() {
    return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
  }

  /** The same result with findings below {@code min} left out. */
  public LintResult atLeast(Severity min) {
    return new LintResult(
        files,
        workloads,
        skipped,
        findings.stream().filter(f -> f.severity().compareTo(min) >= 0).toList(),
        problems);
  }
}
