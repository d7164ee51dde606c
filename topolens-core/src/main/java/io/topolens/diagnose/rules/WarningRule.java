package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;
import java.util.Set;

/** A rule that reports the WARN lines of some kinds as one finding. */
abstract class WarningRule implements Rule {
  private final Set<NcclWarning.Kind> kinds;
  private final Severity severity;

  WarningRule(Severity severity, NcclWarning.Kind... kinds) {
    this.kinds = Set.of(kinds);
    this.severity = severity;
  }

  abstract String title();

  abstract String explanation();

  abstract String fix();

  @Override
  public final List<Finding> check(Job job) {
    List<NcclWarning> hits =
        job.warnings().stream()
            .filter(w -> kinds.contains(w.kind()) && w.evidence() != null)
            .toList();
    if (hits.isEmpty()) {
      return List.of();
    }
    long lines = hits.stream().mapToLong(NcclWarning::count).sum();
    long processes = hits.stream().mapToLong(NcclWarning::processes).max().orElse(0);
    return List.of(
        new Finding(
            id(),
            severity,
            title(),
            lines
                + " line(s) of "
                + hits.size()
                + " distinct form(s), from up to "
                + processes
                + " process(es). "
                + explanation(),
            hits.stream().map(NcclWarning::evidence).toList(),
            fix()));
  }
}
