package io.topolens.kube.lint;

import io.topolens.diagnose.Finding;
import io.topolens.kube.model.Workload;
import java.util.List;

/**
 * One lint rule: a stable id, and a check of one workload that reads the model only and returns
 * nothing when its condition does not hold. Implementations are stateless; each is documented in
 * docs/lint.md under its id.
 */
public interface LintRule {

  /** The finding id this rule reports (kebab-case, stable). */
  String id();

  List<Finding> check(Workload w, LintContext ctx);
}
