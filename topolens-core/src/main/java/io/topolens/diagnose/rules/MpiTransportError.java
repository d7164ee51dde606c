package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code mpi-transport-error}: MPI's own transport (UCX, under Open MPI's {@code pml ucx}) could
 * not connect its ranks: UCX's error log ({@code ib_device.c:1380 UCX ERROR ibv_create_ah(...) for
 * RC DEVX QP connect on mlx5_15 failed: No such device}, {@code sock.c:323 UCX ERROR connect(...)
 * failed: Connection refused}) or Open MPI's {@code pml_ucx.c:477 Error: Failed to resolve UCX
 * endpoint for rank 3}. Not {@code mpi-daemon-failed}: there mpirun's runtime lost its daemons over
 * its out-of-band TCP channel; here the ranks started and MPI's data path between them failed.
 */
public final class MpiTransportError extends WarningRule {

  public MpiTransportError() {
    super(Severity.ERROR, NcclWarning.Kind.MPI_TRANSPORT);
  }

  @Override
  public String id() {
    return "mpi-transport-error";
  }

  @Override
  String title() {
    return "MPI's UCX transport could not connect the ranks, before or beside NCCL";
  }

  @Override
  String explanation() {
    return "MPI, which nccl-tests and Horovod use to start the ranks and pass NCCL's unique id, talks between ranks over its own transport: Open MPI's pml ucx picks UCX, which opens RDMA (or TCP) endpoints of its own, apart from NCCL's. These lines are UCX's and Open MPI's, not NCCL's: MPI's first exchange (MPI_Init, MPI_Allgather of the id) failed, so NCCL never ran or its errors after them are consequences. Usual causes: an RDMA device UCX picked that the pod or container cannot use (an SR-IOV virtual function differing between the pods, no /dev/infiniband, no IPC_LOCK or memlock limit: 'No such device' from ibv_create_ah or ibv_create_qp), UCX or Open MPI built differently on the hosts, or a UCX_NET_DEVICES / UCX_TLS choice that reaches the peer over an interface it cannot route to (docker0's 172.17.0.1: 'Connection refused', 'Destination is unreachable').";
  }

  @Override
  String fix() {
    return "Confirm it is MPI's transport: rerun with -mca pml ob1 -mca btl tcp,self (or -x UCX_TLS=tcp,self with -x UCX_NET_DEVICES=eth0, an interface every host reaches); if that runs, expose the RDMA devices to the pods (the RDMA or SR-IOV device plugin's resource, /dev/infiniband, IPC_LOCK and an unlimited memlock), name the same usable device on every host (UCX_NET_DEVICES=mlx5_0:1; ucx_info -d lists them), and install the same UCX and Open MPI on every host.";
  }
}
