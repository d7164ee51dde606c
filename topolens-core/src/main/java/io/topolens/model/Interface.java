package io.topolens.model;

/**
 * A socket interface NCCL chose, for bootstrap or for the socket/IB out-of-band transport.
 *
 * @param role BOOTSTRAP, SOCKET (NET/Socket data path) or OOB (IB out-of-band)
 * @param name interface name (eth0, lo, docker0...)
 * @param address the address NCCL printed
 * @param index its place in NCCL's list ({@code [1]veth0:...}): the {@code N} of {@code
 *     NET/Socket/N}
 */
public record Interface(
    String process, Role role, String name, String address, int index, Evidence evidence) {

  /** What NCCL uses the interface for. */
  public enum Role {
    BOOTSTRAP,
    SOCKET,
    OOB
  }
}
