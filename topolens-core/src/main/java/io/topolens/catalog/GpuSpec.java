package io.topolens.catalog;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One GPU model as the catalog knows it.
 *
 * @param match name fragments that identify it in {@code nvidia-smi} or nccl-tests output (matched
 *     as whole words, longest first, so "L4" does not match "L40S")
 * @param nvlink its NVLink, or null when it has none
 * @param pcie its host link, or null when it reaches the host another way (Grace C2C)
 * @param bf16Tflops dense BF16 tensor TFLOPS, or null when not published
 * @param memoryTBs memory bandwidth in TB/s, or null when not verified
 * @param p2p false where NVIDIA's driver gives these GPUs no working peer-to-peer between them (a
 *     GeForce part; its sources say so), null where the catalog does not say
 */
public record GpuSpec(
    String id,
    String name,
    List<String> match,
    String architecture,
    String computeCapability,
    Link nvlink,
    Link pcie,
    Double bf16Tflops,
    double memoryGB,
    Double memoryTBs,
    List<String> sources,
    List<String> notes,
    Boolean p2p) {

  /**
   * A link's generation, width and rate.
   *
   * @param links NVLink links, or PCIe lanes
   * @param gbps GB/s per direction for the whole GPU (all links or lanes together)
   */
  public record Link(int generation, Integer links, Integer lanes, double gbps) {}

  public GpuSpec {
    match = List.copyOf(match);
    sources = List.copyOf(sources);
    notes = notes == null ? List.of() : List.copyOf(notes);
  }

  /** The length of the longest fragment found as a whole word in {@code text}, or 0. */
  int matchLength(String text) {
    int best = 0;
    for (String m : match) {
      Pattern p =
          Pattern.compile(
              "(?i)(^|[^a-z0-9])" + Pattern.quote(m.toLowerCase(Locale.ROOT)) + "($|[^a-z0-9])");
      if (m.length() > best && p.matcher(text).find()) {
        best = m.length();
      }
    }
    return best;
  }

  /** Whether the catalog says these GPUs have no working P2P between them. */
  public boolean withoutP2p() {
    return Boolean.FALSE.equals(p2p);
  }

  public boolean hasNvlink() {
    return nvlink != null;
  }
}
