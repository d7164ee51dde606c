package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code duplicate-rank}: NCCL's bootstrap root saw a rank check in twice ({@code Bootstrap Root :
 * rank 3 of 8 ranks has already checked in}, {@code bootstrapRoot: rank 0 of 8 has already checked
 * in}): two processes claim one rank of one communicator; or it received ranks that disagree on the
 * communicator's size ({@code Bootstrap Root : mismatch in info from procs, nranks 8 vs 16}): two
 * launches, or ranks started with different world sizes, share one rendezvous.
 */
public final class DuplicateRank implements Rule {

  @Override
  public String id() {
    return "duplicate-rank";
  }

  @Override
  public List<Finding> check(Job job) {
    List<NcclWarning> sizes =
        job.warnings().stream()
            .filter(
                w -> w.evidence() != null && w.message().contains("mismatch in info from procs"))
            .toList();
    List<Finding> out = new java.util.ArrayList<>();
    if (!sizes.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "Ranks that joined one NCCL rendezvous disagree on its size",
              "NCCL's bootstrap root received ranks that give different numbers of ranks (or of roots) for the"
                  + " communicator: processes of two launches, or of one launch with different WORLD_SIZE /"
                  + " --nnodes / --nproc_per_node values, met at the same unique id (the same"
                  + " MASTER_ADDR:MASTER_PORT or NCCL_COMM_ID). Communicator init fails.",
              sizes.stream().map(NcclWarning::evidence).toList(),
              "Start every node with the same world size (--nnodes, --nproc_per_node, WORLD_SIZE); give each run"
                  + " its own MASTER_PORT or rendezvous id; kill leftovers of earlier runs."));
    }
    List<NcclWarning> hits =
        job.warnings().stream()
            .filter(w -> w.evidence() != null && w.message().contains("has already checked in"))
            .toList();
    if (hits.isEmpty()) {
      return out;
    }
    out.add(
        new Finding(
            id(),
            Severity.ERROR,
            "Two processes claim the same NCCL rank",
            "NCCL's bootstrap root received the same rank number twice: two processes were started with one"
                + " rank, so the communicator never completes (or the second copy is rejected). Usual causes: the"
                + " launcher ran on two nodes with the same node rank (torchrun --node_rank, or RANK/LOCAL_RANK"
                + " computed the same on both), the job was started twice against one MASTER_ADDR:MASTER_PORT, or"
                + " a process of an earlier run is still alive and joined the new one.",
            hits.stream().map(NcclWarning::evidence).toList(),
            "Give every node its own --node_rank (or let the launcher derive RANK from the scheduler:"
                + " SLURM_PROCID, the pod index of the JobSet/PyTorchJob); kill leftovers of earlier runs; give"
                + " each run its own MASTER_PORT or rendezvous id."));
    return out;
  }
}
