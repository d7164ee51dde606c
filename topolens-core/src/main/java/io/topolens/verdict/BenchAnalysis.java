package io.topolens.verdict;

import io.topolens.bench.BenchFile;
import io.topolens.bench.BenchRun;
import io.topolens.catalog.GpuSpec;
import io.topolens.inputs.Inputs;
import io.topolens.model.Job;
import io.topolens.model.LaunchCommand;
import io.topolens.ncclxml.NcclNet;
import io.topolens.ncclxml.NcclTopology;
import io.topolens.smi.P2pMatrix;
import io.topolens.smi.SmiGpu;
import io.topolens.smi.SmiReport;
import io.topolens.smi.TopoMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Judges every nccl-tests run among some inputs, with the topology and logs beside them. */
public final class BenchAnalysis {
  private final Expectations expectations;
  private final BenchJudge judge;

  public BenchAnalysis(Expectations expectations) {
    this.expectations = expectations;
    this.judge = new BenchJudge(expectations);
  }

  /** A verdict per run, in input order. */
  public List<BenchVerdict> judge(Inputs inputs, Hardware given) {
    Hardware hw = completeHardware(inputs, given, expectations);
    TopologyHint topo = topology(inputs);
    List<BenchVerdict> out = new ArrayList<>();
    for (BenchFile f : inputs.benches()) {
      Job log = inputs.benchLogs().get(f.file());
      List<LaunchCommand> launches =
          inputs.job().launches().stream()
              .filter(l -> l.evidence().file().equals(f.file()))
              .toList();
      for (BenchRun run : f.runs()) {
        out.add(judge.judge(run, new BenchJudge.Context(hw, log, topo, launches)));
      }
    }
    return out;
  }

  /**
   * The first topology the inputs hold: a topo -m matrix (with what {@code topo -p2p} matrices
   * beside it add), else NCCL's topology dump.
   */
  public static TopologyHint topology(Inputs inputs) {
    List<P2pMatrix> p2p = inputs.smi().stream().flatMap(r -> r.p2p().stream()).toList();
    for (SmiReport r : inputs.smi()) {
      for (TopoMatrix m : r.matrices()) {
        TopologyHint h = TopologyHints.of(m);
        if (h != null) {
          return TopologyHints.withP2p(h, p2p);
        }
      }
    }
    for (NcclTopology t : inputs.topologies()) {
      TopologyHint h = TopologyHints.of(t);
      if (h != null) {
        return h;
      }
    }
    return null;
  }

  /** Fills the GPU from nvidia-smi's GPU names and the NIC rate from NCCL's topology dump. */
  public static Hardware completeHardware(Inputs inputs, Hardware hw, Expectations expectations) {
    Hardware out = hw;
    if (out.gpu() == null && out.instance() == null) {
      GpuSpec g =
          inputs.smi().stream()
              .flatMap(r -> r.gpus().stream())
              .map(SmiGpu::name)
              .filter(Objects::nonNull)
              .map(n -> expectations.catalog().gpuByName(n).orElse(null))
              .filter(Objects::nonNull)
              .findFirst()
              .orElse(null);
      if (g != null) {
        out = out.withGpu(g);
      }
    }
    if (out.nicGbps() == null && out.instance() == null) {
      for (NcclTopology t : inputs.topologies()) {
        double sum =
            t.nets().stream()
                .map(NcclNet::speedGbps)
                .filter(Objects::nonNull)
                .mapToDouble(d -> d)
                .sum();
        if (sum > 0) {
          out =
              new Hardware(
                  out.gpu(), null, sum, "sum of NIC speeds in NCCL's topology dump " + t.file());
          break;
        }
      }
    }
    return out;
  }
}
