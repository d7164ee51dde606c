package io.topolens.ncclxml;

import java.util.Locale;

/**
 * What a PCI class code means to NCCL (its {@code kvDictPciClass}: the code is matched by prefix):
 * the class of a {@code <pci>} element, and the {@code tclass} of an {@code <nvlink>} target.
 */
public enum PciClass {
  /** {@code 0x060400}: a PCI bridge or switch port. */
  BRIDGE("0x060400"),
  /** {@code 0x068000}: an NVSwitch (NCCL also assumes one when the VM hides the NVLink peer). */
  NVSWITCH("0x068000"),
  /** {@code 0x068001}: a CPU reached over NVLink (IBM POWER). */
  CPU("0x068001"),
  /** {@code 0x03...}: a GPU (display or 3D controller). */
  GPU("0x03"),
  /** {@code 0x02...}: a network controller (Ethernet, InfiniBand). */
  NIC("0x02"),
  /** Any other class, or none given. */
  OTHER("");

  private final String prefix;

  PciClass(String prefix) {
    this.prefix = prefix;
  }

  /** The class code, or code prefix, NCCL matches. */
  public String prefix() {
    return prefix;
  }

  /** The class of a code such as {@code 0x030200}; {@link #OTHER} for null or unknown codes. */
  public static PciClass of(String code) {
    if (code == null) {
      return OTHER;
    }
    String c = code.trim().toLowerCase(Locale.ROOT);
    for (PciClass k : values()) {
      if (k != OTHER && c.startsWith(k.prefix)) {
        return k;
      }
    }
    return OTHER;
  }
}
