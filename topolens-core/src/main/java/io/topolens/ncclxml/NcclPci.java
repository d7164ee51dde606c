package io.topolens.ncclxml;

import io.topolens.model.Evidence;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code <pci>} element: a PCI switch port, or the PCI function of a GPU or NIC.
 *
 * @param busId the bus id as written ({@code 0000:a4:00.0})
 * @param pciClass the {@code class} code ({@code 0x030200}), or null
 * @param vendor the vendor id, or null
 * @param device the device id, or null
 * @param subsystemVendor the subsystem vendor id, or null
 * @param subsystemDevice the subsystem device id, or null
 * @param linkSpeed the {@code link_speed} as written ({@code 32.0 GT/s PCIe}), or null when empty
 * @param linkWidth the {@code link_width} in lanes, or null when empty (VMs often report 0)
 * @param parentBusId the enclosing {@code <pci>}, or null when it hangs directly off its CPU
 * @param cpuNumaId the {@code numaid} of the enclosing {@code <cpu>}, or null
 * @param pciLinks the targets of its {@code <pcilink>} children (Broadcom switch peer links)
 * @param attributes every attribute as written
 * @param evidence the element's line
 */
public record NcclPci(
    String busId,
    String pciClass,
    String vendor,
    String device,
    String subsystemVendor,
    String subsystemDevice,
    String linkSpeed,
    Integer linkWidth,
    String parentBusId,
    String cpuNumaId,
    List<String> pciLinks,
    Map<String, String> attributes,
    Evidence evidence) {
  private static final Pattern GTS = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*GT/s.*");

  /** What the class code means to NCCL. */
  public PciClass kind() {
    return PciClass.of(pciClass);
  }

  /** The link speed in GT/s per lane ({@code 32.0 GT/s PCIe} is 32.0), or null. */
  public Double linkSpeedGts() {
    if (linkSpeed == null) {
      return null;
    }
    Matcher m = GTS.matcher(linkSpeed.trim());
    return m.matches() ? Double.valueOf(m.group(1)) : null;
  }
}
