package io.topolens.model;

/** The NCCL transport a connection uses, as named after {@code via} in a connection line. */
public enum Transport {
  /** GPU to GPU over NVLink or PCIe peer-to-peer (direct pointer, CUMEM, IPC, indirect). */
  P2P,
  /** Through host shared memory (/dev/shm). */
  SHM,
  /** Through a network plugin: sockets, InfiniBand/RoCE, AWS EFA (libfabric), external plugins. */
  NET,
  /** NVLink SHARP (NVSwitch multicast). */
  NVLS,
  /** In-network reduction (SHARP over IB, or a CollNet plugin). */
  COLLNET,
  /** A transport word NCCL printed that this reader does not know. */
  UNKNOWN;

  /** Whether this transport only works between GPUs that NCCL sees on one node. */
  public boolean intraNodeOnly() {
    return this == P2P || this == SHM;
  }
}
