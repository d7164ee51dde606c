package io.topolens.model;

/**
 * What the text after {@code via} says about a connection, beyond its transport.
 *
 * <p>{@code raw} is always the exact text NCCL printed (for example {@code P2P/CUMEM/read} or
 * {@code NET/AWS Libfabric/2(4)/GDRDMA/Shared}).
 */
public sealed interface PathDetail {

  String raw();

  Transport transport();

  /** GPU peer-to-peer. {@code mode} is direct pointer, CUMEM, IPC, MNNVL or indirect. */
  record P2p(String raw, P2pMode mode, boolean read, boolean copyEngine, Integer viaRank)
      implements PathDetail {
    @Override
    public Transport transport() {
      return Transport.P2P;
    }
  }

  /** Host shared memory; {@code raw} carries NCCL's send/receive modes (e.g. SHM/direct/direct). */
  record Shm(String raw) implements PathDetail {
    @Override
    public Transport transport() {
      return Transport.SHM;
    }
  }

  /**
   * A network plugin path. {@code plugin} is NCCL's name for it (Socket, IB, AWS Libfabric,
   * Libfabric...), {@code device} the NIC index, {@code proxyRank} the rank whose NIC is used when
   * PXN routes through a peer GPU, {@code gdr} GPUDirect RDMA, {@code shared} shared buffers.
   */
  record Net(
      String raw, String plugin, Integer device, Integer proxyRank, boolean gdr, boolean shared)
      implements PathDetail {
    @Override
    public Transport transport() {
      return Transport.NET;
    }

    /** Whether the plugin is NCCL's TCP socket transport. */
    public boolean isSocket() {
      return plugin.equalsIgnoreCase("Socket");
    }
  }

  /** NVLink SHARP or CollNet. */
  record Collective(String raw, Transport transport) implements PathDetail {}

  /** A transport text the reader could not place. */
  record Unknown(String raw) implements PathDetail {
    @Override
    public Transport transport() {
      return Transport.UNKNOWN;
    }
  }

  /** How two GPUs share buffers for P2P. */
  enum P2pMode {
    /** Same process: a plain device pointer. */
    DIRECT_POINTER,
    /** Different processes, buffers shared through the cuMem virtual memory API (the default). */
    CUMEM,
    /** Different processes, legacy cudaIpc handles. */
    IPC,
    /** Multi-node NVLink (GB200 NVL and similar). */
    MNNVL,
    /** Routed through an intermediate GPU: the one P2P path that is not direct. */
    INDIRECT,
    /** A form this reader does not know. */
    OTHER
  }
}
