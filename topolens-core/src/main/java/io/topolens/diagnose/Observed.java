package io.topolens.diagnose;

import io.topolens.model.Job;
import io.topolens.ncclxml.NcclTopology;
import io.topolens.smi.SmiReport;
import io.topolens.verdict.BenchVerdict;
import io.topolens.verdict.TopologyHint;
import java.util.List;

/**
 * Everything a diagnosis judges: the NCCL logs, and what was given beside them (nvidia-smi
 * topology, NCCL topology dumps, verdicts on nccl-tests runs).
 *
 * @param topology the node's GPU topology reduced for rules, or null when no topology was given
 */
public record Observed(
    Job job,
    List<SmiReport> smi,
    List<NcclTopology> topologies,
    TopologyHint topology,
    List<BenchVerdict> benches) {

  public Observed {
    smi = List.copyOf(smi);
    topologies = List.copyOf(topologies);
    benches = List.copyOf(benches);
  }

  /** A job alone, nothing beside it. */
  public static Observed of(Job job) {
    return new Observed(job, List.of(), List.of(), null, List.of());
  }
}
