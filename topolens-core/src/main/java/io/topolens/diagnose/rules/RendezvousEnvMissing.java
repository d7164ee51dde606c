package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code rendezvous-env-missing}: a process called init_process_group with the env:// rendezvous
 * (the default) but was not started by a launcher that sets its variables ({@code ValueError: Error
 * initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR
 * expected, but not set}), or with a tcp:// or file:// init_method but without its rank or world
 * size ({@code Error initializing torch.distributed using tcp:// rendezvous: rank parameter
 * missing}), or a multi-node launch given no rendezvous address (torchrun's endpoint {@code
 * 'None:None'}, accelerate's {@code you need to specify the main process IP}).
 */
public final class RendezvousEnvMissing extends WarningRule {

  public RendezvousEnvMissing() {
    super(Severity.ERROR, NcclWarning.Kind.RENDEZVOUS_ENV);
  }

  @Override
  public String id() {
    return "rendezvous-env-missing";
  }

  @Override
  String title() {
    return "The process was started without the rendezvous variables";
  }

  private String titleOfVariables(List<NcclWarning> hits) {
    TreeSet<String> names = new TreeSet<>();
    for (NcclWarning w : hits) {
      if (w.detail() instanceof NcclWarning.Detail.EnvNotSet(String variable)) {
        names.add(variable);
      }
    }
    return names.isEmpty() ? title() : title() + " (" + String.join(", ", names) + " not set)";
  }

  /** Why and what to do, for the tcp:// or file:// form. */
  private static final String PARAMETER_WHY =
      "init_process_group was given an init_method of tcp://HOST:PORT or file://PATH, and those rendezvous take the process's rank and the world size from the call itself (rank=, world_size=), not from the environment: one was not passed (None), or passed as -1, the default of a --local_rank argument that no launcher filled (the script run with plain python, on Windows, or under torchrun, which sets LOCAL_RANK in the environment instead of passing --local_rank). Nothing was wrong with the network: the process never tried to connect.";

  private static final String PARAMETER_FIX =
      "Pass rank= and world_size= with a tcp:// or file:// init_method (each process its own global rank, 0 to world_size-1: under torchrun int(os.environ['RANK']) and int(os.environ['WORLD_SIZE'])), or drop the init_method and start the script with torchrun so the default env:// rendezvous reads them; a script with --local_rank needs torch.distributed.launch (or LOCAL_RANK read from the environment under torchrun).";

  /** Whether every line is the tcp:// or file:// form, and none env://'s. */
  private static boolean parameters(List<NcclWarning> hits) {
    return hits.stream().allMatch(w -> w.detail() instanceof NcclWarning.Detail.ParameterMissing);
  }

  /** Why and what to do, for a multi-node launch given no rendezvous address. */
  private static final String ENDPOINT_WHY =
      "A launcher for several nodes was given no address of the rendezvous: torchrun's endpoint had no host or port ('None:None': --rdzv-endpoint, or --master_addr/--master_port with the static rendezvous, left out, or the options of a wrapper that builds them not set), or accelerate launch was told --num_machines above 1 without --main_process_ip or --main_process_port (on the command line or in its config file). Each node needs the same address of the first node to meet there; no process tried to connect.";

  private static final String ENDPOINT_FIX =
      "Give every node the same address and port of the node of rank 0: torchrun --nnodes N --rdzv-backend c10d --rdzv-endpoint HOST:PORT (or --master_addr HOST --master_port PORT with --node_rank), accelerate launch --num_machines N --machine_rank R --main_process_ip HOST --main_process_port PORT (or main_process_ip/main_process_port in each node's accelerate config); under Slurm HOST is the job's first host (scontrol show hostnames $SLURM_JOB_NODELIST | head -n1).";

  /** Whether every line is a launcher without its rendezvous address. */
  private static boolean endpoints(List<NcclWarning> hits) {
    return hits.stream().allMatch(w -> w.detail() instanceof NcclWarning.Detail.EndpointNotGiven);
  }

  @Override
  String explanation(List<NcclWarning> hits) {
    return parameters(hits) ? PARAMETER_WHY : endpoints(hits) ? ENDPOINT_WHY : explanation();
  }

  @Override
  String fix(List<NcclWarning> hits) {
    return parameters(hits) ? PARAMETER_FIX : endpoints(hits) ? ENDPOINT_FIX : fix();
  }

  @Override
  String title(List<NcclWarning> hits) {
    if (parameters(hits)) {
      TreeSet<String> what = new TreeSet<>();
      for (NcclWarning w : hits) {
        if (w.detail()
            instanceof NcclWarning.Detail.ParameterMissing(String scheme, boolean rank)) {
          what.add(scheme + " without " + (rank ? "rank=" : "world_size="));
        }
      }
      return "init_process_group was called without its rank or world size ("
          + String.join(", ", what)
          + ")";
    }
    if (endpoints(hits)) {
      TreeSet<String> named = new TreeSet<>();
      for (NcclWarning w : hits) {
        if (w.detail() instanceof NcclWarning.Detail.EndpointNotGiven(String what)) {
          named.add(what);
        }
      }
      return "The multi-node launch was given no rendezvous address ("
          + String.join(", ", named)
          + ")";
    }
    return titleOfVariables(hits);
  }

  @Override
  String explanation() {
    return "init_process_group's default env:// rendezvous reads MASTER_ADDR, MASTER_PORT, RANK and WORLD_SIZE (torchrun also sets LOCAL_RANK) from the environment, and one of them was not set: the script was run with plain python (or under srun, mpirun, a notebook or a test runner) instead of a launcher that sets them, or the launcher's variables have other names (Slurm's SLURM_PROCID, Open MPI's OMPI_COMM_WORLD_RANK) that nothing copied. Nothing was wrong with the network: the process never tried to connect.";
  }

  @Override
  String fix() {
    return "Start the script with a launcher that sets the variables: torchrun --nproc_per_node=N (with --nnodes, --node_rank and --master_addr/--master_port, or --rdzv-endpoint, across nodes), accelerate launch, deepspeed; under srun or mpirun without one, export MASTER_ADDR (the first host of the job, e.g. scontrol show hostnames $SLURM_JOB_NODELIST | head -n1) and MASTER_PORT, and set RANK / WORLD_SIZE / LOCAL_RANK from SLURM_PROCID / SLURM_NTASKS / SLURM_LOCALID (or OMPI_COMM_WORLD_*); or pass rank= and world_size= with an init_method of tcp://HOST:PORT.";
  }
}
