package io.topolens.ncclxml;

/**
 * NCCL's path types ({@code PATH_*}), as a {@code <graph>} writes them in {@code typeintra} and
 * {@code typeinter}, best first. Not every NCCL release has every type ({@code C2C}, {@code P2C}
 * and {@code PXN} are newer).
 */
public enum NcclPathType {
  /** The device itself. */
  LOC("local, the device itself"),
  /** NVLink. */
  NVL("NVLink"),
  /** NVLink through an intermediate GPU. */
  NVB("NVLink through an intermediate GPU"),
  /** NVLink-C2C to the CPU. */
  C2C("NVLink-C2C"),
  /** At most one PCIe bridge. */
  PIX("at most a single PCIe bridge"),
  /** Several PCIe bridges, not through the host bridge. */
  PXB("multiple PCIe bridges, without the PCIe host bridge"),
  /** GPU to NIC through C2C to the CPU, then PCIe to the NIC. */
  P2C("C2C to the CPU, then PCIe to the NIC"),
  /** GPU to NIC through an intermediate GPU (PXN). */
  PXN("through an intermediate GPU to its NIC (PXN)"),
  /** PCIe through a host bridge (typically the CPU). */
  PHB("PCIe as well as a PCIe host bridge"),
  /** PCIe plus the SMP interconnect between NUMA nodes. */
  SYS("PCIe as well as the SMP interconnect between NUMA nodes"),
  /** Through the network. */
  NET("through the network"),
  /** Disconnected. */
  DIS("disconnected");

  private final String meaning;

  NcclPathType(String meaning) {
    this.meaning = meaning;
  }

  /** The type in plain words. */
  public String meaning() {
    return meaning;
  }

  /** The type of a name as written, or null for a name NCCL does not define. */
  public static NcclPathType of(String name) {
    if (name == null) {
      return null;
    }
    for (NcclPathType t : values()) {
      if (t.name().equals(name.trim())) {
        return t;
      }
    }
    return null;
  }
}
