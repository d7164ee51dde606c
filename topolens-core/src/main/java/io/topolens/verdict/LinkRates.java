package io.topolens.verdict;

import io.topolens.catalog.GpuSpec;
import io.topolens.smi.Link;
import io.topolens.smi.LinkKind;
import java.util.Locale;

/** What a {@code topo -m} link class between two GPUs offers, in words, from the catalog. */
public final class LinkRates {
  private LinkRates() {}

  /** One line about a GPU-GPU class, e.g. "NVLink: 18 links x 25 GB/s = 450 GB/s per direction". */
  public static String describe(Link link, GpuSpec gpu) {
    LinkKind k = link.kind();
    if (k == LinkKind.NVLINK) {
      if (gpu == null || gpu.nvlink() == null || gpu.nvlink().links() == null) {
        return "NVLink (" + link.nvlinks() + " links); rate unknown without the GPU model";
      }
      double perLink = gpu.nvlink().gbps() / gpu.nvlink().links();
      double rate = Math.min(gpu.nvlink().gbps(), perLink * link.nvlinks());
      return String.format(
          Locale.ROOT,
          "NVLink %d: %d links x %s GB/s = %s GB/s per direction (catalog: %s)",
          gpu.nvlink().generation(),
          link.nvlinks(),
          Numbers.gbps(perLink),
          Numbers.gbps(rate),
          gpu.name());
    }
    String pcie =
        gpu == null || gpu.pcie() == null
            ? ""
            : String.format(
                Locale.ROOT,
                "; the slot gives %s GB/s per direction (PCIe Gen%d x%s, catalog: %s)",
                Numbers.gbps(gpu.pcie().gbps()),
                gpu.pcie().generation(),
                gpu.pcie().lanes(),
                gpu.name());
    return switch (k) {
      case PIX, PXB -> "PCIe P2P through PCIe switches, not the CPU" + pcie;
      case PHB ->
          "PCIe through the CPU's host bridge: P2P may be slow or blocked; NCCL may stage through host memory (SHM)"
              + pcie;
      case NODE ->
          "PCIe across host bridges of one NUMA node: P2P may be slow or blocked; NCCL may use SHM"
              + pcie;
      case SYS ->
          "PCIe across CPU sockets (QPI/UPI/Infinity Fabric): the slowest path; NCCL stages through host memory"
              + pcie;
      default -> k.meaning();
    };
  }
}
