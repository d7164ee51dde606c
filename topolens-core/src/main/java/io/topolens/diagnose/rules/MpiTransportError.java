package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code mpi-transport-error}: MPI's own transport (UCX, under Open MPI's {@code pml ucx}) could
 * not connect its ranks: UCX's error log ({@code ib_device.c:1380 UCX ERROR ibv_create_ah(...) for
 * RC DEVX QP connect on mlx5_15 failed: No such device}, {@code sock.c:323 UCX ERROR connect(...)
 * failed: Connection refused}) or Open MPI's {@code pml_ucx.c:477 Error: Failed to resolve UCX
 * endpoint for rank 3}; or Open MPI's btl tcp reaching a process it did not expect ({@code
 * btl_tcp_endpoint.c:626:mca_btl_tcp_endpoint_recv_connect_ack] received unexpected process
 * identifier}, {@code connect() to 172.17.0.1 failed: Connection refused (111)}, a form of its
 * own). Not {@code mpi-daemon-failed}: there mpirun's runtime lost its daemons over its out-of-band
 * TCP channel; here the ranks started and MPI's data path between them failed.
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

  /** Whether every line is Open MPI's own TCP transport's (btl tcp), by the reader's reading. */
  private static boolean btlOnly(List<NcclWarning> hits) {
    return hits.stream()
        .allMatch(w -> w.detail() instanceof NcclWarning.Detail.MpiTransport t && t.btlTcp());
  }

  @Override
  String title(List<NcclWarning> hits) {
    return btlOnly(hits)
        ? "Open MPI's TCP transport (btl tcp) reached the wrong process or none: an address the"
            + " nodes share or cannot route to"
        : title();
  }

  @Override
  String explanation(List<NcclWarning> hits) {
    return btlOnly(hits)
        ? "MPI, which nccl-tests and Horovod use to start the ranks and pass NCCL's unique id, talks between ranks over its own transport: here Open MPI's btl tcp, which connects to the addresses each rank published for every interface it found. These lines are Open MPI's, not NCCL's: MPI's first exchange failed, so NCCL never ran or its errors after them are consequences."
        : explanation();
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            "btl_tcp",
            "`received unexpected process identifier` or `connect() to ADDR failed` (btl_tcp_endpoint.c): Open MPI's btl tcp connected to an address a peer published and found another process there, or nothing: the peers published addresses of interfaces every node has (docker0's 172.17.0.1, a libvirt or CNI bridge, a loopback alias) or that the other nodes cannot route to, so the connection stayed on the local node, went to the wrong one or was refused.",
            "Keep btl tcp (and the runtime's oob) off the shared interfaces: --mca btl_tcp_if_include eth0 (an interface every node reaches the others on, or a subnet such as 10.0.0.0/16) or --mca btl_tcp_if_exclude docker0,lo,virbr0 (with lo listed: excluding replaces the default), and the same for oob_tcp_if_include."));
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
