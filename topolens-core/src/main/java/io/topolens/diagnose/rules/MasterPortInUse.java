package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

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

  @Override
  String fix() {
    return "Give each job on a host its own port: torchrun --master_port=29501 (or --rdzv-endpoint=HOST:PORT), accelerate launch --main_process_port 29501, deepspeed --master_port 29501, or MASTER_PORT=29501; torchrun --standalone picks a free one. Find what holds the port with ss -ltnp | grep 29500 (or lsof -i :29500) and end a leftover run.";
  }
}
