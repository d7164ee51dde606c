package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code rendezvous-timeout}: PyTorch's TCPStore rendezvous timed out before NCCL started ({@code
 * DistStoreError: Timed out after N seconds waiting for clients. k/n clients joined.}, {@code The
 * client socket has timed out after Ns while trying to connect to (HOST, PORT).}), or a rank waited
 * in the store for rank 0's NCCL unique id ({@code [4] is setting up NCCL communicator and
 * retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got
 * error: Socket Timeout}).
 */
public final class RendezvousTimeout extends WarningRule {

  public RendezvousTimeout() {
    super(Severity.ERROR, NcclWarning.Kind.RENDEZVOUS);
  }

  @Override
  public String id() {
    return "rendezvous-timeout";
  }

  @Override
  String title() {
    return "Ranks never met at the rendezvous (TCPStore timed out)";
  }

  @Override
  String explanation() {
    return "PyTorch's process-group rendezvous timed out before NCCL was even started: rank 0 hosts a TCPStore at MASTER_ADDR:MASTER_PORT and waits for every rank to connect (the k/n joined count says how many did), and the other ranks connect to it. Ranks that never join were not started (fewer processes or nodes launched than WORLD_SIZE / nnodes x nproc_per_node says), died before init_process_group (an error or an out-of-memory kill earlier in their own logs), are still busy (loading a model before init), or cannot reach the address (MASTER_ADDR not routable from the other nodes, the port blocked by a firewall or security group, or already taken). A rank that was 'retrieving ncclUniqueId from [0] via c10d key-value store' and got a timeout from store->get waited for rank 0 to create its NCCL communicator for that process group and publish its id: rank 0 did not get there within the timeout (busy with data loading or evaluation, stuck, crashed, or on a code path that skips the first collective), or the store itself became unreachable.";
  }

  @Override
  String fix() {
    return "Check that WORLD_SIZE (nnodes x nproc_per_node) matches the processes actually launched, and read the logs of the ranks that did not join for an earlier error; from every node, test the store (nc -zv MASTER_ADDR MASTER_PORT) and open that port; start all nodes within the timeout (or raise timeout= in init_process_group). For a unique-id timeout, read rank 0's log for what it was doing at that time (an error, a long step only rank 0 runs) and make every rank call the first collective of each process group.";
  }
}
