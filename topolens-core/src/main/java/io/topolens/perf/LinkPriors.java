package io.topolens.perf;

import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.InstanceSpec;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The links a topology gives before any calibration, from catalog facts and NCCL's topology model:
 * NVLink as links x NCCL's per-link bandwidth, PCIe as lanes x NCCL's per-lane speed, SHM as PCIe
 * through the CPU, each rounded to the channels x speed NCCL's ring search builds; networks as the
 * NIC rate shared by the pods of a host, times a measured efficiency (EFA) or capped by what NCCL's
 * socket transport reaches (TCP).
 */
public final class LinkPriors {
  private final PerfConstants k;

  public LinkPriors(PerfConstants constants) {
    this.k = constants;
  }

  /** NVLink between GPUs of one host. */
  public Link nvlink(GpuSpec gpu) throws InputProblem {
    if (gpu.nvlink() == null) {
      throw new InputProblem(gpu.name() + " has no NVLink in the catalog; use --intra pcie or shm");
    }
    GpuArch arch = GpuArch.of(gpu.computeCapability());
    int links = gpu.nvlink().links() == null ? 0 : gpu.nvlink().links();
    if (links == 0) {
      throw new InputProblem("the catalog gives no NVLink count for " + gpu.name());
    }
    double perLink = k.value(arch.nvlinkId());
    double raw = links * perLink;
    return ringLink(
        PathKind.NVLINK,
        raw,
        arch,
        String.format(
            Locale.ROOT,
            "NCCL model: %d NVLinks x %s GB/s = %s GB/s",
            links,
            num(perLink),
            num(raw)),
        sources(gpu.sources(), "NCCL-TOPO-H", "NCCL-SEARCH"));
  }

  /** PCIe peer-to-peer between GPUs under one PCIe switch. */
  public Link pcie(GpuSpec gpu) throws InputProblem {
    double raw = pciGBps(gpu);
    return ringLink(
        PathKind.PCIE,
        raw,
        GpuArch.of(gpu.computeCapability()),
        pcieBasis(gpu, raw),
        sources(gpu.sources(), "NCCL-TOPO-CC", "NCCL-SEARCH"));
  }

  /** "NCCL model: PCIe GenN xL = R GB/s": the GPU's PCIe link as NCCL rates it. */
  private static String pcieBasis(GpuSpec gpu, double gbps) {
    return "NCCL model: PCIe Gen"
        + gpu.pcie().generation()
        + " x"
        + lanes(gpu)
        + " = "
        + num(gbps)
        + " GB/s";
  }

  /** Shared memory through the host: PCIe through the CPU, with NCCL's root-complex overhead. */
  public Link shm(GpuSpec gpu) throws InputProblem {
    double pci = pciGBps(gpu);
    double overhead = k.value("nccl.intelP2pOverhead");
    double raw = pci / overhead;
    return ringLink(
        PathKind.SHM,
        raw,
        GpuArch.of(gpu.computeCapability()),
        pcieBasis(gpu, pci) + " through the CPU / " + num(overhead) + " = " + num(raw) + " GB/s",
        sources(gpu.sources(), "NCCL-TOPO-CC", "NCCL-TOPO-H", "NCCL-SEARCH"));
  }

  /**
   * The network between NCCL nodes (pods): the instance's NIC rate (or {@code nicGbps}) shared by
   * the {@code podsPerHost} pods on it.
   *
   * @param crossesHosts whether the ring leaves the host (false: all pods on one host, where TCP
   *     between pods never reaches the NIC)
   */
  public Link network(
      PathKind path, InstanceSpec inst, int podsPerHost, boolean crossesHosts, Double nicGbps)
      throws InputProblem {
    double gbps = nicGbps != null ? nicGbps : inst.efaGbps();
    String rateSource = nicGbps != null ? "--nic-gbps " + num(nicGbps) : inst.type();
    List<String> src = new ArrayList<>(nicGbps != null ? List.of() : inst.sources());
    double nic = gbps / 8.0;
    double share = nic / podsPerHost;
    String shareText =
        num(gbps)
            + " Gbps ("
            + rateSource
            + ") = "
            + num(nic)
            + " GB/s per host"
            + (podsPerHost > 1
                ? ", / " + podsPerHost + " pods = " + num(share) + " GB/s per pod"
                : "");
    int channels = Math.max(2, 2 * Math.max(1, inst.efa() / Math.max(1, podsPerHost)));
    switch (path) {
      case EFA -> {
        if (nicGbps == null && inst.efa() == 0) {
          throw new InputProblem(inst.type() + " has no EFA in the catalog; use --network eni");
        }
        double eff = k.value("path.efa.efficiency");
        src.add("NCCL-235");
        return new Link(
            path,
            share * eff,
            channels,
            null,
            shareText + ", x " + num(eff) + " ring efficiency = " + num(share * eff) + " GB/s",
            src,
            false);
      }
      case IB -> {
        if (nicGbps == null) {
          throw new InputProblem(
              "the catalog has no InfiniBand rate for " + inst.type() + "; pass --nic-gbps");
        }
        double eff = k.value("path.ib.efficiency");
        src.add("NCCL-TUNING");
        return new Link(
            path,
            share * eff,
            channels,
            null,
            shareText + ", x " + num(eff) + " (NCCL's model, no measurement)",
            src,
            false);
      }
      case TCP -> {
        double socket = k.value("path.tcp.socketGBps");
        src.add("NCCL-450");
        if (!crossesHosts) {
          return new Link(
              path,
              socket,
              2,
              null,
              "NCCL socket transport between pods of one host (never reaches the NIC): "
                  + num(socket)
                  + " GB/s, bounded by CPU copies",
              src,
              false);
        }
        double bw = Math.min(share, socket);
        return new Link(
            path,
            bw,
            2,
            null,
            shareText
                + "; NCCL's socket transport reaches "
                + num(socket)
                + " GB/s (CPU-bound) -> "
                + num(bw)
                + " GB/s",
            src,
            false);
      }
      default -> throw new IllegalArgumentException(path + " is not a network");
    }
  }

  /** NCCL's socket transport between GPUs of one host (P2P and SHM disabled). */
  public Link socketOnHost() {
    double socket = k.value("path.tcp.socketGBps");
    return new Link(
        PathKind.TCP,
        socket,
        2,
        null,
        "NCCL socket transport inside one host: " + num(socket) + " GB/s, bounded by CPU copies",
        List.of("NCCL-450"),
        false);
  }

  /** NCCL's PCI bandwidth of the GPU's host link: lanes x speed / 80 (topo.cc). */
  double pciGBps(GpuSpec gpu) throws InputProblem {
    if (gpu.pcie() == null) {
      throw new InputProblem(gpu.name() + " has no PCIe host link in the catalog");
    }
    int gen = gpu.pcie().generation();
    if (gen < 3 || gen > 6) {
      throw new InputProblem(gpu.name() + ": PCIe Gen" + gen + " is outside NCCL's table (3-6)");
    }
    return lanes(gpu) * k.value("nccl.pciSpeed", gen - 3) / 80.0;
  }

  private static int lanes(GpuSpec gpu) {
    return gpu.pcie().lanes() == null ? 16 : gpu.pcie().lanes();
  }

  /**
   * A ring link over {@code raw} GB/s as NCCL's search builds it: the largest channels x speed that
   * fits, from the architecture's speed list, at most {@code MAXCHANNELS/2} channels. The search
   * walks down the list while a speed is more than 0.49 of the first one that fits; among equal
   * products topolens takes the lowest such speed (more channels), which reproduces the graphs NCCL
   * printed on the H200 fixtures (12 x 30 GB/s over NVLink, 2 x 20 GB/s over SHM).
   */
  Link ringLink(PathKind path, double raw, GpuArch arch, String basis, List<String> sources) {
    int[] pick = search(raw, arch);
    int channels = pick[0];
    double speed = pick[1] / 100.0;
    double bus = channels * speed;
    return new Link(
        path,
        bus,
        channels,
        null,
        basis
            + "; ring search: "
            + channels
            + " channels x "
            + num(speed)
            + " GB/s = "
            + num(bus)
            + " GB/s",
        sources,
        false);
  }

  /** {channels, speed x 100} of the ring NCCL's search would build over {@code raw} GB/s. */
  int[] search(double raw, GpuArch arch) {
    List<Double> speeds = k.values(arch.searchSpeedsId());
    int maxChannels = (int) k.value("nccl.maxRingChannels");
    double first = -1;
    double bestProduct = -1;
    int bestChannels = 1;
    double bestSpeed = speeds.get(speeds.size() - 1);
    for (double s : speeds) {
      if (s > raw + 1e-9) {
        continue;
      }
      if (first < 0) {
        first = s;
      } else if (s / first <= 0.49) {
        break;
      }
      int ch = (int) Math.min(maxChannels, Math.floor(raw / s + 1e-9));
      double product = ch * s;
      if (product >= bestProduct - 1e-9) {
        bestProduct = product;
        bestChannels = ch;
        bestSpeed = s;
      }
    }
    if (first < 0) {
      // Slower than every speed NCCL tries: one channel at the raw rate.
      return new int[] {1, (int) Math.round(raw * 100)};
    }
    return new int[] {bestChannels, (int) Math.round(bestSpeed * 100)};
  }

  private static List<String> sources(List<String> catalog, String... model) {
    List<String> all = new ArrayList<>(catalog);
    all.addAll(List.of(model));
    return all;
  }

  /** A number without a trailing {@code .0}, at most two decimals. */
  static String num(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e12) {
      return String.valueOf((long) v);
    }
    String s = String.format(Locale.ROOT, "%.2f", v);
    return s.replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
