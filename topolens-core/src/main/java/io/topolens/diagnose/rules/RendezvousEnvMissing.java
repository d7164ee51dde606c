package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rendezvous-env-missing}: a process called init_process_group with the env:// rendezvous
 * (the default) but was not started by a launcher that sets its variables ({@code ValueError: Error
 * initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR
 * expected, but not set}).
 */
public final class RendezvousEnvMissing extends WarningRule {

  private static final Pattern VARIABLE =
      Pattern.compile("(?i)environment variable (\\w+) expected, but not set");

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

  @Override
  String title(List<NcclWarning> hits) {
    TreeSet<String> names = new TreeSet<>();
    for (NcclWarning w : hits) {
      Matcher m = VARIABLE.matcher(w.message());
      while (m.find()) {
        names.add(m.group(1));
      }
    }
    return names.isEmpty() ? title() : title() + " (" + String.join(", ", names) + " not set)";
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
