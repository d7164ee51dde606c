package io.topolens.diagnose;

import io.topolens.model.Job;
import java.util.List;

/**
 * One finding's logic. Called once per diagnosis, after the whole input is read; reads the model
 * only and returns nothing when its condition does not hold. Implementations are stateless.
 */
public interface Rule {

  /** The finding id this rule reports. */
  String id();

  List<Finding> check(Job job);

  /**
   * Checks the job with whatever was given beside it (topology, benchmarks). Rules that need only
   * the logs keep this default.
   */
  default List<Finding> check(Observed observed) {
    return check(observed.job());
  }

  /**
   * Whether this rule only catches what no other rule explains: its evidence lines that another
   * finding already cites are dropped, and the finding with them when none is left.
   */
  default boolean catchAll() {
    return false;
  }
}
