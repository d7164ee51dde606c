package io.topolens.diagnose;

import io.topolens.diagnose.rules.EnvOverride;
import io.topolens.diagnose.rules.GdrDisabled;
import io.topolens.diagnose.rules.IbError;
import io.topolens.diagnose.rules.InterNodeTcp;
import io.topolens.diagnose.rules.MissingRanks;
import io.topolens.diagnose.rules.NcclWarnings;
import io.topolens.diagnose.rules.NetPluginFallback;
import io.topolens.diagnose.rules.NvlsError;
import io.topolens.diagnose.rules.OneRankPerNode;
import io.topolens.diagnose.rules.P2pUnavailable;
import io.topolens.diagnose.rules.SameHostOverNetwork;
import io.topolens.diagnose.rules.ShmExhausted;
import io.topolens.diagnose.rules.SlowBootstrap;
import io.topolens.diagnose.rules.SocketInterface;
import io.topolens.diagnose.rules.VersionMismatch;
import io.topolens.model.Job;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Runs every rule over a job. */
public final class Diagnoser {
  private final List<Rule> rules;

  public Diagnoser(List<Rule> rules) {
    this.rules = List.copyOf(rules);
  }

  /** All rules topolens ships, in the order docs/findings.md lists them. */
  public static Diagnoser standard() {
    return new Diagnoser(
        List.of(
            new NetPluginFallback(),
            new InterNodeTcp(),
            new SameHostOverNetwork(),
            new OneRankPerNode(),
            new P2pUnavailable(),
            new ShmExhausted(),
            new SlowBootstrap(),
            new GdrDisabled(),
            new SocketInterface(),
            new EnvOverride(),
            new MissingRanks(),
            new VersionMismatch(),
            new IbError(),
            new NvlsError(),
            new NcclWarnings()));
  }

  public List<Rule> rules() {
    return rules;
  }

  public Diagnosis diagnose(Job job) {
    List<Finding> findings = new ArrayList<>();
    for (Rule r : rules) {
      findings.addAll(r.check(job));
    }
    findings.sort(Comparator.comparing(Finding::severity).reversed());
    return new Diagnosis(job, findings);
  }
}
