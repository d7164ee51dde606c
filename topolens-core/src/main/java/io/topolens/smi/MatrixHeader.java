package io.topolens.smi;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The header line of a {@code topo -m} or {@code topo -p2p} matrix: the device columns (starting
 * with {@code GPU0}-style names), then the affinity columns nvidia-smi knows.
 */
record MatrixHeader(List<String> devices, List<String> columns) {
  static final Pattern GPU = Pattern.compile("GPU\\d{1,4}");
  private static final Pattern DEVICE = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,31}\\d{1,4}");
  private static final List<String> KNOWN_COLUMNS =
      List.of(TopoMatrix.CPU_AFFINITY, TopoMatrix.NUMA_AFFINITY, TopoMatrix.GPU_NUMA_ID);

  /** The header a line is, or null. */
  static MatrixHeader parse(String line) {
    String trimmed = line.trim();
    if (!trimmed.startsWith("GPU")) {
      return null; // the first token must be GPU<n>: no split (a regular expression) on other lines
    }
    String[] tokens = trimmed.split("\\s+");
    if (tokens.length == 0 || !GPU.matcher(tokens[0]).matches()) {
      return null;
    }
    List<String> devices = new ArrayList<>();
    int i = 0;
    while (i < tokens.length && DEVICE.matcher(tokens[i]).matches()) {
      if (devices.contains(tokens[i])) {
        return null;
      }
      devices.add(tokens[i]);
      i++;
    }
    String rest = String.join(" ", java.util.Arrays.asList(tokens).subList(i, tokens.length));
    List<String> columns = new ArrayList<>();
    while (!rest.isEmpty()) {
      String found = null;
      for (String c : KNOWN_COLUMNS) {
        if (rest.equals(c) || rest.startsWith(c + " ")) {
          found = c;
          break;
        }
      }
      if (found == null || columns.contains(found)) {
        return null;
      }
      columns.add(found);
      rest = rest.substring(found.length()).trim();
    }
    return new MatrixHeader(List.copyOf(devices), List.copyOf(columns));
  }

  static boolean isGpu(String device) {
    return GPU.matcher(device).matches();
  }

  /** True when only a topology matrix prints such a header (affinity columns or a NIC column). */
  boolean isTopology() {
    return !columns.isEmpty() || devices.stream().anyMatch(d -> !isGpu(d));
  }
}
