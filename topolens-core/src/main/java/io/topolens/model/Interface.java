package io.topolens.model;

/**
 * A socket interface NCCL chose, for bootstrap or for the socket/IB out-of-band transport.
 *
 * @param role BOOTSTRAP, SOCKET (NET/Socket data path) or OOB (IB out-of-band)
 * @param name interface name (eth0, lo, docker0...)
 * @param address the address NCCL printed
 */
public record Interface(String process, Role role, String name, String address, Evidence evidence) {

  /** What NCCL uses the interface for. */
  public enum Role {
    BOOTSTRAP,
    SOCKET,
    OOB
  }
}
