package io.topolens.smi;

import io.topolens.model.Evidence;
import java.util.List;

/**
 * The {@code nvidia-smi nvlink -s} block of one GPU.
 *
 * @param gpu the GPU index
 * @param name the product name on the block's first line
 * @param uuid the GPU's UUID, or null when the output hid it
 * @param links every link line, in order
 * @param evidence the block's first line
 */
public record NvlinkStatus(
    int gpu, String name, String uuid, List<NvlinkSpeed> links, Evidence evidence) {

  /** The links with a speed. */
  public List<NvlinkSpeed> active() {
    return links.stream().filter(l -> l.gbps() != null).toList();
  }

  /** The sum of the speeds of the active links, in GB/s (one direction, as nvidia-smi prints). */
  public double totalGbps() {
    return active().stream().mapToDouble(NvlinkSpeed::gbps).sum();
  }
}
