package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;
import io.topolens.diagnose.Facts.CommEdge;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.GdrStatus;
import io.topolens.model.Job;
import io.topolens.model.PathDetail;
import io.topolens.verdict.PathKind;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code gdr-disabled}: RDMA network paths (IB, EFA, external RDMA plugins; never TCP transports:
 * NCCL's sockets, FastSocket, GPUDirect-TCPX/TCPXO, which have no RDMA) that run without GPUDirect
 * RDMA, or NICs for which an RDMA transport reported GDR off.
 */
public final class GdrDisabled implements Rule {

  @Override
  public String id() {
    return "gdr-disabled";
  }

  @Override
  public List<Finding> check(Job job) {
    List<CommEdge> noGdr =
        Facts.edges(
            job,
            ce -> ce.edge().path() instanceof PathDetail.Net n && rdma(n.plugin()) && !n.gdr());
    List<GdrStatus> off =
        job.gdr().stream().filter(g -> !g.enabled() && rdma(g.transport())).toList();
    if (noGdr.isEmpty() && off.isEmpty()) {
      return List.of();
    }
    List<Evidence> evidence = new ArrayList<>();
    off.forEach(g -> evidence.add(g.evidence()));
    evidence.addAll(Facts.evidence(noGdr));
    StringBuilder text = new StringBuilder();
    if (!noGdr.isEmpty()) {
      text.append(Facts.pairCount(noGdr))
          .append(
              " RDMA network connection(s) run without GPUDirect RDMA (no /GDRDMA after the device): pairs ")
          .append(Facts.pairs(noGdr, 12))
          .append(". ");
    }
    if (!off.isEmpty()) {
      text.append("The network transport reported GPUDirect RDMA off for ")
          .append(
              Facts.list(
                  off.stream()
                      .map(g -> g.hca().isEmpty() ? g.transport() : g.hca())
                      .distinct()
                      .toList(),
                  8))
          .append(". ");
    }
    text.append(
        "Without GDR the NIC cannot read and write GPU memory directly, so every message is copied through a"
            + " host bounce buffer, costing bandwidth and CPU. Platforms with GDR: p4d, p4de, p5, p5e, p5en"
            + " (EFA), and InfiniBand hosts with nvidia-peermem or DMA-BUF.");
    return List.of(
        new Finding(
            id(),
            Severity.WARN,
            "Network traffic without GPUDirect RDMA",
            text.toString(),
            evidence,
            "On InfiniBand load nvidia-peermem (modprobe nvidia-peermem) or use a kernel and driver with DMA-BUF;"
                + " do not set NCCL_NET_GDR_LEVEL low. On EFA use libfabric >= 1.18 and aws-ofi-nccl >= 1.7"
                + " (FI_EFA_USE_DEVICE_RDMA=1 only for older stacks) on an instance type with EFA RDMA (p4d and"
                + " later)."));
  }

  /**
   * Whether the plugin moves data by RDMA: TCP transports (NCCL's sockets, FastSocket,
   * GPUDirect-TCPX/TCPXO) have no GPUDirect RDMA to miss; a plugin of no known kind counts as RDMA.
   */
  private static boolean rdma(String plugin) {
    return PathKind.ofNetPlugin(plugin) != PathKind.TCP;
  }
}
