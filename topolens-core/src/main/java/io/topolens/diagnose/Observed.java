package io.topolens.diagnose;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.model.Cluster;
import io.topolens.model.Job;
import io.topolens.ncclxml.NcclTopology;
import io.topolens.smi.SmiReport;
import io.topolens.verdict.BenchVerdict;
import io.topolens.verdict.TopologyHint;
import java.util.List;

/**
 * Everything a diagnosis judges: the NCCL logs, and what was given beside them (nvidia-smi
 * topology, NCCL topology dumps, verdicts on nccl-tests runs, what the cluster said of the job's
 * pods and nodes).
 *
 * @param topology the node's GPU topology reduced for rules, or null when no topology was given
 * @param cluster the job's pods and nodes as the Kubernetes API described them, {@link
 *     Cluster#NONE} for logs read from files
 * @param catalog the hardware catalog rules compare the cluster with, or null
 */
public record Observed(
    Job job,
    List<SmiReport> smi,
    List<NcclTopology> topologies,
    TopologyHint topology,
    List<BenchVerdict> benches,
    Cluster cluster,
    HardwareCatalog catalog) {

  public Observed {
    smi = List.copyOf(smi);
    topologies = List.copyOf(topologies);
    benches = List.copyOf(benches);
    cluster = cluster == null ? Cluster.NONE : cluster;
  }

  /** What was read from files: no cluster, no catalog. */
  public Observed(
      Job job,
      List<SmiReport> smi,
      List<NcclTopology> topologies,
      TopologyHint topology,
      List<BenchVerdict> benches) {
    this(job, smi, topologies, topology, benches, Cluster.NONE, null);
  }

  /** A job alone, nothing beside it. */
  public static Observed of(Job job) {
    return new Observed(job, List.of(), List.of(), null, List.of());
  }
}
