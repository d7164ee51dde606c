package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Rule;
import io.topolens.model.Job;
import java.util.List;

/**
 * A rule that judges what was given beside the logs (topology, benchmarks): on logs alone it finds
 * nothing.
 */
abstract class BesideRule implements Rule {

  @Override
  public final List<Finding> check(Job job) {
    return check(Observed.of(job));
  }

  @Override
  public abstract List<Finding> check(Observed observed);
}
