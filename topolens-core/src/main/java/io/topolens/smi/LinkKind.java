package io.topolens.smi;

import java.util.Locale;

/**
 * The connection classes {@code nvidia-smi topo -m} prints between two devices, ordered from the
 * best path for peer-to-peer traffic to the worst ({@link #ordinal()} is the rank: lower is
 * better). The wording follows the legend nvidia-smi prints under the matrix; very old drivers
 * printed {@code SOC} ("the SMP link between CPU sockets") for what newer ones call {@code SYS}, so
 * {@code SOC} reads as {@link #SYS}. Drivers before the {@code NODE} class printed "a single PCIe
 * switch" and "multiple PCIe switches" for {@code PIX} and {@code PXB}; the classes are the same.
 *
 * <p>NCCL's own path types ({@code NVB}, {@code C2C}, {@code PXN}, ...) are not nvidia-smi cells
 * and are not listed here; no public nvidia-smi output was found that prints them.
 */
public enum LinkKind {
  /** {@code X}: the device itself. */
  SELF("X", "the device itself"),
  /** {@code NV#}: a bonded set of # NVLinks (directly or through NVSwitch). */
  NVLINK("NV#", "a bonded set of NVLinks (the number says how many)"),
  /** {@code PIX}: at most a single PCIe bridge (switch) between the two devices. */
  PIX("PIX", "at most a single PCIe bridge (one PCIe switch)"),
  /** {@code PXB}: multiple PCIe bridges, without the PCIe host bridge. */
  PXB("PXB", "multiple PCIe bridges, without going through the PCIe host bridge"),
  /** {@code PHB}: PCIe plus a PCIe host bridge (typically the CPU). */
  PHB("PHB", "PCIe as well as a PCIe host bridge (typically the CPU)"),
  /** {@code NODE}: PCIe plus the interconnect between host bridges within one NUMA node. */
  NODE("NODE", "PCIe as well as the interconnect between PCIe host bridges within a NUMA node"),
  /** {@code SYS} (old drivers: {@code SOC}): PCIe plus the SMP interconnect between NUMA nodes. */
  SYS("SYS", "PCIe as well as the SMP interconnect between NUMA nodes (e.g. QPI/UPI)");

  private final String code;
  private final String meaning;

  LinkKind(String code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  /** The code as the legend prints it ({@code NV#} for NVLink). */
  public String code() {
    return code;
  }

  /** The legend's meaning, in plain words. */
  public String meaning() {
    return meaning;
  }

  /** True when this class is a better peer-to-peer path than {@code other}. */
  public boolean betterThan(LinkKind other) {
    return ordinal() < other.ordinal();
  }

  /** True for the classes that go over PCIe only (no NVLink, not the device itself). */
  public boolean isPcie() {
    return this != SELF && this != NVLINK;
  }

  /**
   * The class a legend code names ({@code X}, {@code NV#}, {@code PIX}, ..., and the old {@code
   * SOC}), or null when nvidia-smi documents no such code.
   */
  public static LinkKind ofLegendCode(String code) {
    String c = code.trim().toUpperCase(Locale.ROOT);
    if (c.equals("SOC")) {
      return SYS;
    }
    for (LinkKind k : values()) {
      if (k.code.equals(c)) {
        return k;
      }
    }
    return null;
  }
}
