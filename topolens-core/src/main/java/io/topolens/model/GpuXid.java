package io.topolens.model;

/**
 * A GPU error the NVIDIA driver or nvidia-smi reported beside the job's logs (a pasted {@code
 * dmesg} or journal): the kernel's {@code NVRM: Xid (PCI:0000:3b:00): 79, pid=..., GPU has fallen
 * off the bus.}, {@code NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.} (Xid 79 without the
 * word Xid), and nvidia-smi's {@code Unable to determine the device handle for GPU0000:3B:00.0:
 * Unknown Error} (the GPU cannot be reached; no Xid of its own).
 *
 * @param pciBus the GPU's PCI address as NCCL's {@code busId} prints it (lower-case hex of domain,
 *     bus, device and function without separators, leading zeros dropped: {@code 3b000}), or null
 *     when the line names none
 * @param xid the Xid code, or -1 when the line names none (nvidia-smi's lost device)
 * @param evidence the line
 */
public record GpuXid(String pciBus, int xid, Evidence evidence) {

  /** What a line says when it names no Xid. */
  public static final int NO_XID = -1;

  /** Whether NCCL's {@code busId} (as its init line prints it: {@code 3b000}) names this GPU. */
  public boolean isBusId(String ncclBusId) {
    if (pciBus == null || ncclBusId == null) {
      return false;
    }
    try {
      return Long.parseLong(pciBus, 16) == Long.parseLong(ncclBusId.strip(), 16);
    } catch (NumberFormatException e) {
      return false; // NCCL printed no plain busId
    }
  }

  /** The PCI address as lspci and nvidia-smi write it ({@code 0000:3b:00.0}), or null. */
  public String address() {
    if (pciBus == null) {
      return null;
    }
    long v = Long.parseLong(pciBus, 16);
    return String.format(
        "%04x:%02x:%02x.%x", v >>> 20, (v >>> 12) & 0xff, (v >>> 4) & 0xff, v & 0xf);
  }
}
