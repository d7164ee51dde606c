package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.LaunchedRank;
import io.topolens.model.NcclWarning;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code duplicate-rank}: NCCL's bootstrap root saw a rank check in twice ({@code Bootstrap Root :
 * rank 3 of 8 ranks has already checked in}, {@code bootstrapRoot: rank 0 of 8 has already checked
 * in}): two processes claim one rank of one communicator; or it received ranks that disagree on the
 * communicator's size ({@code Bootstrap Root : mismatch in info from procs, nranks 8 vs 16}; before
 * 2.5 {@code Bootstrap Root : mismatch in rank count from procs 8 : 16}): two launches, or ranks
 * started with different world sizes, share one rendezvous. Also the ranks a launcher announced
 * (Lightning's {@code Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/8}): one announced twice,
 * one outside its world, or worlds of different sizes.
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
                w ->
                    w.evidence() != null
                        && w.message().contains("mismatch in ")
                        && w.message().contains(" from procs"))
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
    out.addAll(launched(job));
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

  private static final String LAYOUT_FIX =
      "Make the allocation and the Trainer agree: on SLURM, #SBATCH --nodes=<num_nodes> and"
          + " --ntasks-per-node=<devices> (with --gres=gpu:<devices>), the script started with srun, and"
          + " Trainer(num_nodes=<num_nodes>, devices=<devices>) with the same numbers; with torchrun or"
          + " another launcher per node, a distinct NODE_RANK / --node_rank on each node (0 on the master),"
          + " the same --nnodes and MASTER_ADDR:MASTER_PORT everywhere.";

  /**
   * The ranks launchers announced (Lightning's {@code GLOBAL_RANK: r, MEMBER: r+1/W}): one rank
   * announced more than once in one log stream and world size, unless every rank of the world was
   * announced the same number of times (a log that holds several runs); a rank outside its world;
   * processes told different world sizes.
   */
  private List<Finding> launched(Job job) {
    List<Finding> out = new java.util.ArrayList<>();
    Map<String, List<LaunchedRank>> groups = new TreeMap<>();
    for (LaunchedRank l : job.launched()) {
      groups
          .computeIfAbsent(l.worldSize() + "|" + l.stream(), k -> new java.util.ArrayList<>())
          .add(l);
    }
    for (List<LaunchedRank> group : groups.values()) {
      int world = group.getFirst().worldSize();
      Map<Integer, List<LaunchedRank>> byRank = new TreeMap<>();
      for (LaunchedRank l : group) {
        byRank.computeIfAbsent(l.rank(), k -> new java.util.ArrayList<>()).add(l);
      }
      List<Integer> twice =
          byRank.entrySet().stream()
              .filter(e -> e.getValue().size() > 1)
              .map(Map.Entry::getKey)
              .toList();
      boolean everyRunWhole =
          byRank.size() == world
              && byRank.values().stream().map(List::size).distinct().count() == 1;
      if (twice.isEmpty() || everyRunWhole) {
        continue;
      }
      List<Evidence> lines =
          twice.stream()
              .flatMap(r -> byRank.get(r).stream())
              .map(LaunchedRank::evidence)
              .limit(24)
              .toList();
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "The launcher gave one global rank to several processes",
              "The launcher ("
                  + group.getFirst().launcher()
                  + ") announced global rank(s) "
                  + join(twice)
                  + " more than once in a world of "
                  + world
                  + " processes; the ranks"
                  + " announced are "
                  + join(List.copyOf(byRank.keySet()))
                  + " ("
                  + byRank.size()
                  + " of "
                  + world
                  + "). Two processes started with one global rank, so the rendezvous"
                  + " never completes: the job hangs at distributed init or the store times out, while"
                  + " the ranks nobody took are waited for. The launch layout does not match the job:"
                  + " on SLURM, usually an sbatch script without --nodes (SLURM then gives one node) or"
                  + " with --ntasks-per-node other than the Trainer's devices, so tasks of different"
                  + " nodes compute the same node rank; elsewhere, nodes started with the same"
                  + " NODE_RANK.",
              lines,
              LAYOUT_FIX));
    }
    // Lightning's note that Slurm starts the processes announces no rank
    List<LaunchedRank> announced = job.launched();
    List<LaunchedRank> outside = announced.stream().filter(l -> l.rank() >= l.worldSize()).toList();
    if (!outside.isEmpty()) {
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "The launcher gave a process a rank outside its world",
              "The launcher announced a global rank at or past the world size it gave (rank "
                  + outside.getFirst().rank()
                  + " of "
                  + outside.getFirst().worldSize()
                  + " processes): the node rank times the processes per node exceeds the world, so"
                  + " NODE_RANK (or SLURM's node index) is larger than the number of nodes the job was"
                  + " told, and init cannot complete.",
              outside.stream().map(LaunchedRank::evidence).limit(24).toList(),
              LAYOUT_FIX));
    }
    List<Integer> worlds =
        announced.stream().map(LaunchedRank::worldSize).distinct().sorted().toList();
    if (worlds.size() > 1) {
      List<Evidence> first =
          worlds.stream()
              .map(
                  w -> announced.stream().filter(l -> l.worldSize() == w).findFirst().orElseThrow())
              .map(LaunchedRank::evidence)
              .toList();
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              "Processes of one job were told different world sizes",
              "The launcher announced ranks of worlds of "
                  + join(worlds)
                  + " processes: the nodes were"
                  + " started with different numbers of nodes or devices (Trainer num_nodes/devices,"
                  + " --nnodes, --nproc_per_node), so they never agree at the rendezvous.",
              first,
              LAYOUT_FIX));
    }
    return out;
  }

  private static String join(List<Integer> ranks) {
    return String.join(", ", ranks.stream().map(String::valueOf).toList());
  }
}
