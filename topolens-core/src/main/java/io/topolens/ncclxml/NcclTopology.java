package io.topolens.ncclxml;

import io.topolens.model.Evidence;
import io.topolens.model.LineSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An NCCL topology file ({@code NCCL_TOPO_DUMP_FILE} output, or an {@code NCCL_TOPO_FILE} input) as
 * written.
 *
 * @param file the input it was read from
 * @param version the {@code <system version>}, or null
 * @param cpus every {@code <cpu>}, in file order
 * @param pci every {@code <pci>}, in file order (parents before children)
 * @param gpus every {@code <gpu>}, in file order
 * @param nets every {@code <net>}, in file order
 * @param unknown elements NCCL's format does not have, or that lack a value NCCL requires (a GPU
 *     without {@code dev}, an NVLink without {@code count}); they are left out of the lists
 * @param root the {@code <system>} line
 */
public record NcclTopology(
    String file,
    String version,
    List<NcclCpu> cpus,
    List<NcclPci> pci,
    List<NcclGpu> gpus,
    List<NcclNet> nets,
    LineSample unknown,
    Evidence root) {

  /** The GPU with a CUDA device index (the first one, should a fused file repeat it). */
  public Optional<NcclGpu> gpu(int dev) {
    return gpus.stream().filter(g -> g.dev() == dev).findFirst();
  }

  /** The network device of a name ({@code mlx5_0}). */
  public Optional<NcclNet> net(String name) {
    return nets.stream().filter(n -> name.equals(n.name())).findFirst();
  }

  /** The {@code <pci>} of a bus id (case-insensitive). */
  public Optional<NcclPci> pci(String busId) {
    if (busId == null) {
      return Optional.empty();
    }
    return pci.stream().filter(p -> sameBus(p.busId(), busId)).findFirst();
  }

  /**
   * The direct NVLinks between two GPUs: the count on the first GPU's {@code <nvlink>} to the
   * second's bus id, or, when the first lists none, the count the other way. 0 when they are not
   * directly linked (links through NVSwitches are not counted here; see {@link
   * NcclGpu#nvswitchLinks()}).
   */
  public int nvlinks(int devA, int devB) {
    Optional<NcclGpu> a = gpu(devA);
    Optional<NcclGpu> b = gpu(devB);
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    int ab = countTo(a.get(), b.get().busId());
    return ab > 0 ? ab : countTo(b.get(), a.get().busId());
  }

  /** The {@code <cpu>} (NUMA node) a GPU hangs off. */
  public Optional<NcclCpu> cpuOf(NcclGpu gpu) {
    return cpu(gpu.cpuNumaId());
  }

  /** The {@code <cpu>} (NUMA node) a network device hangs off. */
  public Optional<NcclCpu> cpuOf(NcclNet net) {
    return cpu(net.cpuNumaId());
  }

  /** The GPUs under one {@code <cpu>} numaid. */
  public List<NcclGpu> gpusOn(String numaId) {
    return gpus.stream().filter(g -> numaId.equals(g.cpuNumaId())).toList();
  }

  /** The network devices under one {@code <cpu>} numaid. */
  public List<NcclNet> netsOn(String numaId) {
    return nets.stream().filter(n -> numaId.equals(n.cpuNumaId())).toList();
  }

  /** The bus ids above a device's {@code <pci>}, nearest first, up to its CPU. */
  public List<String> pciAncestors(String busId) {
    List<String> out = new ArrayList<>();
    Optional<NcclPci> p = pci(busId);
    while (p.isPresent() && p.get().parentBusId() != null && out.size() < pci.size()) {
      out.add(p.get().parentBusId());
      p = pci(p.get().parentBusId());
    }
    return out;
  }

  /**
   * The nearest PCI switch port above both devices, or null when they meet only at the CPU (or are
   * on different CPUs).
   */
  public String commonPciAncestor(String busA, String busB) {
    List<String> b = pciAncestors(busB);
    for (String a : pciAncestors(busA)) {
      for (String x : b) {
        if (sameBus(a, x)) {
          return a;
        }
      }
    }
    return null;
  }

  private Optional<NcclCpu> cpu(String numaId) {
    if (numaId == null) {
      return Optional.empty();
    }
    return cpus.stream().filter(c -> numaId.equals(c.numaId())).findFirst();
  }

  private static int countTo(NcclGpu from, String busId) {
    if (busId == null) {
      return 0;
    }
    return from.nvlinks().stream()
        .filter(l -> sameBus(l.target(), busId))
        .mapToInt(NcclNvlink::count)
        .sum();
  }

  static boolean sameBus(String a, String b) {
    return a != null && b != null && a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT));
  }
}
