package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Communicator;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.LaunchedRank;
import io.topolens.model.Member;
import io.topolens.model.SlurmManaged;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * {@code missing-ranks}: a communicator of n ranks has lines from fewer (warn: the logs are
 * incomplete, so findings about the others cannot be made), or ranks that started init never
 * completed it (error where other ranks completed init or something failed: a hang or crash during
 * init; else a warning, since lines that end during init may be an excerpt cut short).
 */
public final class MissingRanks implements Rule {

  @Override
  public String id() {
    return "missing-ranks";
  }

  @Override
  public List<Finding> check(Job job) {
    List<Finding> out = new ArrayList<>();
    for (Communicator c : job.communicators()) {
      if (c.nRanks() <= 0) {
        continue;
      }
      // counted, not listed: a damaged line may claim two billion ranks
      long absent =
          c.nRanks() - c.members().keySet().stream().filter(r -> r >= 0 && r < c.nRanks()).count();
      if (absent > 0) {
        List<Integer> first =
            IntStream.range(0, c.nRanks())
                .filter(r -> !c.members().containsKey(r))
                .limit(16)
                .boxed()
                .toList();
        Member any = c.members().values().stream().findFirst().orElse(null);
        out.add(
            new Finding(
                id(),
                Severity.WARN,
                "Logs cover "
                    + c.members().size()
                    + " of "
                    + c.nRanks()
                    + " ranks of communicator "
                    + c.key(),
                "No line in the input comes from rank(s) "
                    + Facts.list(first, 16)
                    + (absent > 16 ? " and " + (absent - 16) + " more" : "")
                    + " of this communicator. Either their logs were not given (one file per pod or rank is"
                    + " expected) or those ranks never printed NCCL INFO lines. What they connected over, and"
                    + " whether they completed init, cannot be told.",
                any == null ? List.of() : List.of(any.firstLine()),
                "Pass every rank's log (a directory of pod logs works: kubectl logs <pod> > logs/<pod>.log for each"
                    + " pod) and make sure NCCL_DEBUG=INFO is set on every rank."));
      }
      List<Member> stuck =
          c.members().values().stream().filter(m -> m.initStarted() && !m.initCompleted()).toList();
      if (!stuck.isEmpty()) {
        out.add(stuck(job, c, stuck));
      }
    }
    Finding slurm = slurmTasks(job);
    if (slurm != null) {
      out.add(slurm);
    }
    return out;
  }

  /**
   * Lightning under Slurm ({@code Multi-processing is handled by Slurm.}) announcing fewer members
   * than its world size and no NCCL communicator in the input: Lightning starts no process itself
   * there, each rank is a Slurm task, and the ranks not announced were not started as tasks or
   * their logs are not given.
   */
  private Finding slurmTasks(Job job) {
    SlurmManaged slurm = job.slurmManaged().stream().findFirst().orElse(null);
    if (slurm == null || !job.communicators().isEmpty()) {
      return null;
    }
    List<LaunchedRank> members = job.launched().stream().filter(l -> l.worldSize() > 0).toList();
    if (members.isEmpty()) {
      return null;
    }
    int world = members.stream().mapToInt(LaunchedRank::worldSize).max().orElseThrow();
    List<Integer> seen =
        members.stream().map(LaunchedRank::rank).filter(r -> r >= 0).distinct().sorted().toList();
    if (seen.size() >= world) {
      return null;
    }
    List<Evidence> evidence = new ArrayList<>();
    evidence.add(slurm.evidence());
    members.stream().map(LaunchedRank::evidence).limit(8).forEach(evidence::add);
    return new Finding(
        id(),
        Severity.WARN,
        "Lightning under Slurm announced "
            + seen.size()
            + " of "
            + world
            + " ranks: the others were not started as Slurm tasks, or their logs are not given",
        "Lightning said \"Multi-processing is handled by Slurm\": it found a Slurm allocation whose"
            + " task count matches the devices and nodes it was asked for, so it starts no process"
            + " itself and expects Slurm to start every rank as a task (each reads its rank from"
            + " SLURM_PROCID). Only rank(s) "
            + Facts.list(seen, 8)
            + " of "
            + world
            + " announced themselves (GLOBAL_RANK ..., MEMBER ...) in the input, and no NCCL"
            + " communicator formed. Only the ranks whose logs are at hand are seen: if the other ranks'"
            + " logs exist, read them first. If they do not, those ranks never started: a batch script"
            + " that runs python directly, not through srun, starts one process on the first node"
            + " only, and it waits for the other "
            + (world - seen.size())
            + " in init_process_group until its timeout.",
        evidence,
        "Start the training with srun inside the sbatch script (srun python train.py ...), with"
            + " #SBATCH --nodes=<num_nodes> and --ntasks-per-node=<devices per node> matching"
            + " Trainer(num_nodes=..., devices=...); each task then becomes one rank.");
  }

  /**
   * Ranks that printed Init START and no Init COMPLETE. An error where the input shows more than
   * lines that end: another rank of the communicator completed init, or something failed (a WARN, a
   * framework's failure, a timeout). Otherwise the lines may simply end there, as an excerpt cut
   * after Init START does: a warning that says both readings.
   */
  private Finding stuck(Job job, Communicator c, List<Member> stuck) {
    boolean othersCompleted = c.members().values().stream().anyMatch(Member::initCompleted);
    boolean failed = job.showsFailure();
    String who =
        "Rank(s) "
            + Facts.list(
                stuck.stream().map(m -> m.rank() + " (" + m.id().host() + ")").toList(), 16)
            + " printed Init START but no Init COMPLETE";
    List<Evidence> evidence = stuck.stream().map(Member::firstLine).toList();
    String fix =
        "Look at the last lines and WARN lines of these ranks and of the ranks they wait for; check the"
            + " other findings (socket-interface, net-plugin-fallback, shm-exhausted) and that every pod of"
            + " the job is running.";
    if (othersCompleted || failed) {
      return new Finding(
          id(),
          Severity.ERROR,
          "Ranks never completed init of communicator " + c.key(),
          who
              + ": init hung or crashed there"
              + (othersCompleted
                  ? ", while other ranks of the communicator completed it."
                  : ", and the input shows a failure.")
              + " A rank stuck in init usually waits for a peer that never arrived or cannot be reached.",
          evidence,
          fix);
    }
    return new Finding(
        id(),
        Severity.WARN,
        "Ranks did not reach Init COMPLETE of communicator " + c.key() + " in these lines",
        who
            + ", and no rank of the communicator completed it; nothing in the input failed (no WARN, no"
            + " framework error, no timeout). Either init hung there or the lines given end during init"
            + " (an excerpt cut short): the lines alone cannot tell which. A rank stuck in init usually"
            + " waits for a peer that never arrived or cannot be reached.",
        evidence,
        "If the job hung: " + fix + " If the log was cut, give the whole log of every rank.");
  }
}
