package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.smi.Link;
import io.topolens.smi.LinkKind;
import io.topolens.smi.SmiReport;
import io.topolens.smi.TopoMatrix;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code nic-far-from-gpu}: in nvidia-smi topo -m, a GPU's nearest NIC sits across the CPU sockets
 * (SYS), so every byte it sends over the network crosses the inter-socket link and GPUDirect RDMA
 * cannot work well.
 */
public final class NicFarFromGpu extends BesideRule {

  @Override
  public String id() {
    return "nic-far-from-gpu";
  }

  @Override
  public List<Finding> check(Observed o) {
    List<Finding> out = new ArrayList<>();
    for (SmiReport r : o.smi()) {
      for (TopoMatrix m : r.matrices()) {
        if (m.nics().isEmpty()) {
          continue;
        }
        List<String> far = new ArrayList<>();
        List<Evidence> evidence = new ArrayList<>();
        for (String gpu : m.gpus()) {
          Link best = null;
          for (String nic : m.nics()) {
            Link l = m.link(gpu, nic);
            if (l != null && (best == null || l.betterThan(best))) {
              best = l;
            }
          }
          if (best != null && best.kind() == LinkKind.SYS) {
            far.add(gpu);
            if (m.rows().get(gpu) != null) {
              evidence.add(m.rows().get(gpu));
            }
          }
        }
        if (far.isEmpty()) {
          continue;
        }
        if (m.header() != null) {
          evidence.add(0, m.header());
        }
        out.add(
            new Finding(
                id(),
                Severity.WARN,
                far.size() + " GPU(s) have no NIC on their CPU socket",
                String.join(", ", far)
                    + " reach their nearest NIC only across the CPU sockets (SYS in "
                    + m.file()
                    + "): inter-node traffic from these GPUs crosses QPI/UPI/Infinity Fabric, and NCCL will not"
                    + " use GPUDirect RDMA across SYS by default (NCCL_NET_GDR_LEVEL), staging through host memory"
                    + " instead. Ranks on these GPUs set the pace of every ring that leaves the node.",
                evidence,
                "Place the job on GPUs that share a socket with a NIC, or add NICs per socket; check NCCL_IB_HCA /"
                    + " NCCL_SOCKET_IFNAME do not exclude the near NIC; with PXN (default since NCCL 2.12) NCCL"
                    + " routes through a GPU near the NIC over NVLink when there is one."));
      }
    }
    return out;
  }
}
