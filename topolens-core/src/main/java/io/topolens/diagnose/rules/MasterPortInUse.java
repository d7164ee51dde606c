package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code master-port-in-use}: PyTorch's TCPStore could not listen on the master port because
 * another process holds it ({@code The server socket has failed to bind to 0.0.0.0:29500 (errno: 98
 * - Address already in use)}, {@code RuntimeError: Address already in use}).
 */
public final class MasterPortInUse extends WarningRule {

  public MasterPortInUse() {
    super(Severity.ERROR, NcclWarning.Kind.PORT_IN_USE);
  }

  @Override
  public String id() {
    return "master-port-in-use";
  }

  @Override
  String title() {
    return "The master port is already in use";
  }

  @Override
  String explanation() {
    return "Rank 0 starts PyTorch's TCPStore, the rendezvous every rank connects to, on MASTER_ADDR:MASTER_PORT (29500 unless set), and the bind failed with errno 98: another process on that host already listens on the port. Usually a second job started on the same node with the same default port (two torchrun, accelerate or deepspeed launches side by side), or a previous run whose processes have not exited yet. The NCCL errors that may follow are consequences: the ranks never met.";
  }

  /** The store's bind failure quoted without its errno: why it still means the port is taken. */
  @Override
  String explanation(List<NcclWarning> hits) {
    boolean errnoCut =
        hits.stream()
            .noneMatch(w -> w.detail() instanceof NcclWarning.Detail.PortInUse p && p.errnoNamed());
    return errnoCut
        ? "Rank 0 starts PyTorch's TCPStore, the rendezvous every rank connects to, on"
            + " MASTER_PORT (29500 unless set), and it could not listen: the lines quote c10d's"
            + " socket.cpp without its errno (\"The server socket has failed to listen on any local"
            + " network address\", thrown once the bind of every address failed; \"failed to bind"
            + " to [::]:PORT\"). The store binds the wildcard addresses [::] and 0.0.0.0, where"
            + " bind fails with EADDRINUSE (98) unless the port is below 1024 (EACCES): another"
            + " process on that host already holds the port. Usually a second launcher on the same"
            + " node (two torchrun, accelerate or deepspeed launches side by side; under Slurm,"
            + " --ntasks or --ntasks-per-node larger than one per node starts a torchrun per task,"
            + " all on the same MASTER_PORT), or a previous run whose processes have not exited."
        : explanation();
  }

  @Override
  String fix() {
    return "Give each job on a host its own port: torchrun --master_port=29501 (or --rdzv-endpoint=HOST:PORT), accelerate launch --main_process_port 29501, deepspeed --master_port 29501, or MASTER_PORT=29501; torchrun --standalone picks a free one. Find what holds the port with ss -ltnp | grep 29500 (or lsof -i :29500) and end a leftover run. Under Slurm start one launcher per node (srun --ntasks-per-node=1 torchrun --nproc_per_node=GPUS, or --ntasks equal to --nodes).";
  }
}
