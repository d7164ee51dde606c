package io.topolens.nccl;

/**
 * Lines of the NVIDIA driver and nvidia-smi that users paste beside an NCCL failure (a {@code
 * dmesg}, {@code journalctl -k}, an {@code nvidia-smi} run): the GPU error, the GPU's PCI address,
 * nothing judged. Forms across driver releases:
 *
 * <ul>
 *   <li>{@code NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.}
 *       (with or without {@code pid=}/{@code name=}; before about R340 {@code NVRM: Xid
 *       (0000:01:00): 3, ...} without {@code PCI:});
 *   <li>{@code NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.} and the older {@code NVRM: GPU
 *       at 0000:01:00.0 has fallen off the bus.}: Xid 79 (nverror.h's {@code
 *       ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS}) in other words;
 *   <li>newer drivers (570), over three lines: {@code NVRM: The NVIDIA GPU 0000:b3:00.0} / {@code
 *       NVRM: (PCI ID: 10de:26b5) installed in this system has} / {@code NVRM: fallen off the bus
 *       and is not responding to commands.}: Xid 79 on the third line, whose GPU it does not name;
 *   <li>the fabric manager's failure to start ({@link #fabricManager}) and its refusal of a driver
 *       of another version ({@link #fabricManagerVersion});
 *   <li>an IB/RoCE port going down or its cable failing ({@link #ibPort});
 *   <li>nvidia-smi's {@code Unable to determine the device handle for GPU0000:3B:00.0: Unknown
 *       Error} (also {@code for GPU 0000:...}): NVML cannot reach the GPU, no Xid of its own.
 * </ul>
 */
final class DriverLine {
  private DriverLine() {}

  private static final String PCI = "PCI:";

  private static final String NVRM = "NVRM: ";

  /** The event of a driver or nvidia-smi line, or null when the line is none of these forms. */
  static NcclEvent parse(String text) {
    int at = text.indexOf(Needles.XID);
    if (at >= 0) {
      return xid(text, at + Needles.XID.length());
    }
    at = text.indexOf(Needles.FALLEN_OFF_BUS);
    if (at >= 0) {
      return fallen(text, at);
    }
    at = text.indexOf(Needles.DEVICE_HANDLE);
    if (at >= 0) {
      return lost(text, at + Needles.DEVICE_HANDLE.length());
    }
    NcclEvent fabric = fabricManager(text);
    if (fabric == null) {
      fabric = fabricManagerVersion(text);
    }
    return fabric != null ? fabric : ibPort(text);
  }

  /**
   * An IB/RoCE port of the host going down, in the kernel's words: Linux 6.15's {@code mlx5_core
   * 0000:08:00.0 mlx5_0: Port: 1 Link DOWN} (drivers/infiniband/core/cache.c, {@code "Port: %d Link
   * %s"}), and mlx5's cable module error {@code Port module event[error]: module %u, %s, %s} (mlx5
   * core events.c): a warning of NCCL's IB kind, the text from the device's name on. The other
   * states (INIT, ARMED, ACTIVE) and module events without {@code [error]} are not failures.
   */
  private static NcclEvent ibPort(String text) {
    int at = text.indexOf(Needles.IB_LINK_DOWN);
    boolean down =
        at > 0
            && text.lastIndexOf("Port: ", at) >= 0
            && text.substring(at + Needles.IB_LINK_DOWN.length()).isBlank();
    int module = text.indexOf(Needles.PORT_MODULE);
    boolean cable =
        module >= 0 && text.startsWith("[error]", module + Needles.PORT_MODULE.length());
    if (!down && !cable) {
      return null;
    }
    int from = down ? text.lastIndexOf("Port: ", at) : module;
    // from the device's name: "mlx5_core 0000:08:00.0 mlx5_0: Port: 1 Link DOWN"
    int device = text.lastIndexOf("mlx5_core ", from);
    String m = text.substring(device >= 0 ? device : from).strip();
    return new NcclEvent.Warning(io.topolens.model.NcclWarning.Kind.IB, m, null);
  }

  /**
   * The NVIDIA fabric manager (NVSwitch systems) failing to start, in its journal: {@code
   * nv-fabricmanager[4177]: request to query NVSwitch device information from NVSwitch driver
   * failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]}, its start script's {@code
   * "/usr/bin/nv-fabricmanager -c /usr/share/nvidia/nvswitch/fabricmanager.cfg" failed! Exit code:
   * 1}, systemd's {@code nvidia-fabricmanager.service: Control process exited, code=exited,
   * status=1/FAILURE} and {@code Job for nvidia-fabricmanager.service failed ...}: a warning of
   * NCCL's NVLS kind (the fabric state NVLS needs), its text as printed.
   */
  private static NcclEvent fabricManager(String text) {
    int at = text.indexOf(Needles.FABRIC_MANAGER);
    if (at < 0) {
      return null;
    }
    boolean driverError = text.contains(FAILED_WITH_ERROR);
    boolean failed =
        driverError
            || text.contains("\" failed! Exit code")
            || text.contains("status=1/FAILURE")
            || text.contains("Failed with result")
            || text.contains(".service failed because");
    if (!failed && !notReady(text)) {
      return null;
    }
    int from = failed ? text.lastIndexOf("nv", at) : 0;
    return new NcclEvent.Warning(
        io.topolens.model.NcclWarning.Kind.NVLS,
        text.substring(Math.max(from, 0)).strip(),
        null,
        new io.topolens.model.NcclWarning.Detail.FabricManagerDown(
            driverError, text.contains(NOTHING_TO_DO)));
  }

  /** The fabric manager quoting the NVSwitch driver's answer to its query. */
  private static final String FAILED_WITH_ERROR = "failed with error:";

  /** The NVSwitch driver's answer where it found no NVSwitch (nvlink's NV_WARN_NOTHING_TO_DO). */
  private static final String NOTHING_TO_DO = "NV_WARN_NOTHING_TO_DO";

  /**
   * The fabric manager refusing the loaded driver (its version check, before it starts): {@code
   * nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 don't
   * match with driver version 530.41.03. Please update with matching NVIDIA driver package.}, later
   * {@code doesn't match ... with the matching ...}, quoted without the program's words ({@code
   * NVIDIA GPU driver interface version 550.90.07 don't match with driver version 550.54.15}): a
   * warning of NCCL's NVLS kind, its text from the fabric manager's words on, both versions as
   * printed.
   */
  private static NcclEvent fabricManagerVersion(String text) {
    int at = text.indexOf(Needles.FABRIC_MANAGER_VERSION);
    int iface = text.lastIndexOf(INTERFACE, at);
    if (at < 0 || iface < 0) {
      return null;
    }
    String fm = version(text, iface + INTERFACE.length());
    String driver = version(text, at + Needles.FABRIC_MANAGER_VERSION.length());
    if (fm == null || driver == null) {
      return null;
    }
    int from = text.lastIndexOf("fabric manager ", iface);
    if (from < 0) {
      from = text.lastIndexOf("NVIDIA GPU driver", iface);
    }
    return new NcclEvent.Warning(
        io.topolens.model.NcclWarning.Kind.NVLS,
        text.substring(from >= 0 ? from : iface).strip(),
        null,
        new io.topolens.model.NcclWarning.Detail.FabricManagerVersion(
            fm, driver, driver.substring(0, driver.indexOf('.'))));
  }

  private static final String INTERFACE = "driver interface version";

  /**
   * The version number ({@code 550.54.15}, {@code 550.120}) after {@code from}'s spaces, or null.
   */
  private static String version(String text, int from) {
    int start = from;
    while (start < text.length() && text.charAt(start) == ' ') {
      start++;
    }
    int end = start;
    while (end < text.length()
        && (Character.isDigit(text.charAt(end))
            || (text.charAt(end) == '.'
                && end + 1 < text.length()
                && Character.isDigit(text.charAt(end + 1))))) {
      end++;
    }
    String v = text.substring(start, end);
    return v.indexOf('.') > 0 ? v : null;
  }

  /**
   * CUDA 802 named beside the fabric manager, as users write it in titles and notes: {@code CUDA
   * initialization fails with 802 system error owing to lack of nvidia-fabricmanager install},
   * {@code For Error 802: system not yet initialized, install nvidia-fabricmanager}.
   */
  private static boolean notReady(String text) {
    int at = text.indexOf("802");
    return at >= 0
        && (at == 0 || !Character.isDigit(text.charAt(at - 1)))
        && (at + 3 == text.length() || !Character.isDigit(text.charAt(at + 3)))
        && (text.contains("CUDA") || text.contains("cuda") || text.contains("Error 802"));
  }

  /** {@code NVRM: Xid (PCI:0000:3b:00): 79, ...}: the address in brackets, then the code. */
  private static NcclEvent xid(String text, int from) {
    int open = text.indexOf('(', from);
    int close = open < 0 ? -1 : text.indexOf("): ", open);
    if (open < 0 || close < 0 || !text.substring(from, open).isBlank()) {
      return null;
    }
    String address = text.substring(open + 1, close);
    if (address.startsWith(PCI)) {
      address = address.substring(PCI.length());
    }
    String bus = busId(address);
    long code = new Cursor(text, close + 3).integer();
    if (bus == null || code < 0 || code > 10_000) {
      return null;
    }
    return new NcclEvent.Xid(bus, (int) code);
  }

  /**
   * {@code NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.} or {@code NVRM: GPU at 0000:01:00.0
   * has fallen off the bus.}: Xid 79 without the word Xid.
   */
  private static NcclEvent fallen(String text, int at) {
    int gpu = text.lastIndexOf("NVRM: GPU ", at);
    if (gpu < 0) {
      // the message over three lines, the address on the first: "NVRM: The NVIDIA GPU
      // 0000:b3:00.0" ... "NVRM: fallen off the bus and is not responding to commands."
      return text.lastIndexOf(NVRM, at) >= 0 ? new NcclEvent.Xid(null, FALLEN_OFF_THE_BUS) : null;
    }
    String rest = text.substring(gpu + 10, at).strip();
    if (rest.startsWith("at ")) {
      rest = rest.substring(3).strip();
    }
    if (rest.startsWith(PCI)) {
      rest = rest.substring(PCI.length());
    }
    int end = 0;
    while (end < rest.length() && (hex(rest.charAt(end)) || ":.".indexOf(rest.charAt(end)) >= 0)) {
      end++;
    }
    String address = rest.substring(0, end);
    if (address.endsWith(":")) {
      address = address.substring(0, address.length() - 1);
    }
    String bus = busId(address);
    return bus == null ? null : new NcclEvent.Xid(bus, FALLEN_OFF_THE_BUS);
  }

  /** nvidia-smi's {@code Unable to determine the device handle for GPU0000:3B:00.0: ...}. */
  private static NcclEvent lost(String text, int from) {
    String rest = text.substring(from).strip();
    if (!rest.startsWith("for GPU")) {
      return null;
    }
    rest = rest.substring(7).strip();
    int colon = rest.indexOf(": ");
    String bus = busId(colon < 0 ? rest : rest.substring(0, colon));
    return new NcclEvent.Xid(bus, io.topolens.model.GpuXid.NO_XID);
  }

  /** nverror.h's ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS. */
  static final int FALLEN_OFF_THE_BUS = 79;

  /**
   * A PCI address ({@code 0000:3b:00}, {@code 0000:3b:00.0}, nvidia-smi's {@code 00000000:3B:00.0})
   * as NCCL prints a busId: its hex digits as one number, function 0 where the address names none,
   * lower case without leading zeros ({@code 3b000}); null when it is not an address.
   */
  static String busId(String address) {
    String a = address.strip();
    String[] parts = a.split(":", -1);
    if (parts.length != 3 || parts[0].isEmpty() || parts[1].length() != 2) {
      return null;
    }
    String device = parts[2];
    String function = "0";
    int dot = device.indexOf('.');
    if (dot >= 0) {
      function = device.substring(dot + 1);
      device = device.substring(0, dot);
    }
    String digits = parts[0] + parts[1] + device + function;
    if (device.length() != 2
        || function.length() != 1
        || digits.length() > 15
        || !digits.chars().allMatch(c -> hex((char) c))) {
      return null;
    }
    return Long.toHexString(Long.parseLong(digits, 16));
  }

  private static boolean hex(char c) {
    return Character.digit(c, 16) >= 0;
  }
}
