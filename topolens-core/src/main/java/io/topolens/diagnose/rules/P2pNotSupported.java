package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.smi.P2pMatrix;
import io.topolens.smi.P2pMode;
import io.topolens.smi.SmiReport;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code p2p-not-supported}: nvidia-smi topo -p2p r or w says peer-to-peer reads or writes are not
 * supported between some GPUs (CNS, GNS, TNS, NS): NCCL then stages through host memory.
 */
public final class P2pNotSupported extends BesideRule {

  @Override
  public String id() {
    return "p2p-not-supported";
  }

  @Override
  public List<Finding> check(Observed o) {
    List<Finding> out = new ArrayList<>();
    for (SmiReport r : o.smi()) {
      for (P2pMatrix p : r.p2p()) {
        if (p.mode() != P2pMode.READ && p.mode() != P2pMode.WRITE) {
          continue;
        }
        List<P2pMatrix.Pair> bad = p.notOk();
        if (bad.isEmpty()) {
          continue;
        }
        List<Evidence> evidence = new ArrayList<>();
        if (p.modeEvidence() != null) {
          evidence.add(p.modeEvidence());
        }
        bad.stream()
            .map(x -> p.rows().get(x.a()))
            .filter(e -> e != null)
            .distinct()
            .forEach(evidence::add);
        List<String> pairs =
            bad.stream().limit(12).map(x -> x.a() + "-" + x.b() + " " + x.status()).toList();
        out.add(
            new Finding(
                id(),
                Severity.WARN,
                "nvidia-smi says P2P "
                    + p.mode().name().toLowerCase(java.util.Locale.ROOT)
                    + " is not supported between "
                    + bad.size()
                    + " GPU pair(s)",
                "topo -p2p "
                    + (p.mode() == P2pMode.READ ? "r" : "w")
                    + " in "
                    + p.file()
                    + ": "
                    + String.join(", ", pairs)
                    + (bad.size() > 12 ? " and more" : "")
                    + ". CNS = chipset not supported, GNS = GPU not supported, TNS = topology not supported, NS ="
                    + " not supported. NCCL cannot use P2P between these GPUs and stages through host memory (SHM),"
                    + " several times slower.",
                evidence,
                "On bare metal disable PCIe ACS and set the IOMMU to passthrough (iommu=pt); in a VM ask for a"
                    + " GPU topology with P2P; otherwise place communicating ranks on GPUs whose pairs say OK."));
      }
    }
    return out;
  }
}
