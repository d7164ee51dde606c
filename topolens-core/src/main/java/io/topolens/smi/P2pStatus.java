package io.topolens.smi;

/**
 * One cell of a {@code nvidia-smi topo -p2p} matrix, as its legend defines it ({@code DR} appears
 * in the legend of newer drivers).
 */
public enum P2pStatus {
  /** {@code X}: the GPU itself. */
  SELF("X", "the GPU itself"),
  /** {@code OK}: peer-to-peer works for this capability. */
  OK("OK", "status OK"),
  /** {@code CNS}: the chipset (platform, PCIe switch, BIOS) does not support it. */
  CNS("CNS", "chipset not supported"),
  /** {@code GNS}: the GPU does not support it. */
  GNS("GNS", "GPU not supported"),
  /** {@code TNS}: the topology between the two GPUs does not support it. */
  TNS("TNS", "topology not supported"),
  /** {@code NS}: not supported (no finer reason given). */
  NS("NS", "not supported"),
  /** {@code DR}: disabled by a driver registry key. */
  DR("DR", "disabled by regkey"),
  /** {@code U}: unknown. */
  U("U", "unknown");

  private final String code;
  private final String meaning;

  P2pStatus(String code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  public String code() {
    return code;
  }

  /** The legend's meaning, in plain words. */
  public String meaning() {
    return meaning;
  }

  /** The status a cell or legend code names, or null when the legend documents no such code. */
  public static P2pStatus ofCode(String code) {
    String c = code.trim();
    for (P2pStatus s : values()) {
      if (s.code.equals(c)) {
        return s;
      }
    }
    return null;
  }
}
