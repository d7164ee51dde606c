package io.topolens.diagnose.rules;

import io.topolens.bench.BenchResult;
import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Observed;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.verdict.BenchVerdict;
import io.topolens.verdict.PathKind;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code results-corrupted}: an nccl-tests run given beside the logs found values the collective
 * delivered wrong (a {@code #wrong} count above 0, {@code Out of bounds values : N FAILED}): data
 * was corrupted on its way between GPUs. Names the likely causes by the path the run took, from
 * NCCL's connection lines or the topology given beside it, and says which it rests on.
 */
public final class ResultsCorrupted extends BesideRule {

  /** Rows cited at most per run. */
  private static final int MAX_ROWS = 4;

  @Override
  public String id() {
    return "results-corrupted";
  }

  @Override
  public List<Finding> check(Observed o) {
    List<Finding> out = new ArrayList<>();
    for (BenchVerdict v : o.benches()) {
      BenchRun run = v.run();
      List<Evidence> lines = new ArrayList<>();
      long rows = 0;
      for (BenchRow r : run.rows()) {
        if (wrong(r.outOfPlace()) || wrong(r.inPlace())) {
          rows++;
          if (lines.size() < MAX_ROWS) {
            lines.add(r.evidence());
          }
        }
      }
      boolean failed = run.outOfBounds() != null && run.outOfBounds().contains("FAILED");
      if (rows == 0 && !failed) {
        continue;
      }
      Evidence summary = run.outOfBoundsAt() != null ? run.outOfBoundsAt() : run.end();
      if (failed && summary != null && !lines.contains(summary)) {
        lines.add(summary);
      }
      String name = run.collective() == null ? "nccl-tests" : run.collective().testName();
      PathKind path = v.ranOn() != null ? v.ranOn().path() : v.offered();
      String restsOn =
          v.ranOn() != null
              ? "NCCL's connection lines (" + v.ranOn().how() + ")"
              : v.offered() != null ? "the topology given beside the run" : null;
      String what =
          (rows > 0 ? rows + " result row(s) counted wrong values" : "")
              + (rows > 0 && failed ? " and " : "")
              + (failed ? "the summary says Out of bounds values : " + run.outOfBounds() : "")
              + ". nccl-tests checks what every rank received against what it should have (floating"
              + " point rounding aside): wrong values mean data was corrupted between GPUs, not a slow"
              + " path. ";
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              name + " received wrong values: data corrupted between GPUs",
              what + cause(path, restsOn),
              lines,
              fix(path)));
    }
    return out;
  }

  private static boolean wrong(BenchResult r) {
    Long n = r == null ? null : r.wrongCount();
    return n != null && n > 0;
  }

  private static String cause(PathKind path, String restsOn) {
    String pcie =
        "On GPUs joined by PCIe, peer-to-peer writes redirected by the IOMMU or by PCI ACS on the"
            + " bridges between them (NODE, PHB, SYS in topo -m) are the commonest cause: the copies"
            + " arrive corrupted or hang (pytorch issue 84803, fixed by turning the IOMMU off; NCCL's"
            + " troubleshooting guide, PCI ACS), and so are GeForce cards without working P2P.";
    String rdma =
        "Over the network with GPUDirect RDMA, a driver or peer-memory module bug corrupts the RDMA"
            + " writes (nccl-tests issues 7 and 8 with nv_peer_mem; nccl issue 133: a CUDA driver bug,"
            + " fixed by upgrading the driver).";
    String bug =
        "An NCCL or driver bug does it too (nccl-tests issue 37: all_gather of 4 GiB on NVLink,"
            + " fixed in NCCL).";
    if (path == null) {
      return "Nothing given says which path the run took (no NCCL connection lines, no topology): "
          + pcie
          + " "
          + rdma
          + " "
          + bug;
    }
    String by = " This rests on " + restsOn + ": " + path.label() + ". ";
    return switch (path) {
      case PCIE -> by + pcie + " " + bug;
      case IB, EFA -> by + rdma + " " + bug;
      default -> by + bug + " " + pcie;
    };
  }

  private static String fix(PathKind path) {
    String pcie =
        "Check ACS and the IOMMU: lspci -vvv | grep ACSCtl (SrcValid+ on a bridge between the GPUs"
            + " redirects P2P), dmesg | grep -i iommu, /proc/cmdline (iommu=pt, or intel_iommu=off /"
            + " amd_iommu=off on bare metal); nvidia-smi topo -p2p r, the CUDA samples' simpleP2P (it checks"
            + " the copied data) and p2pBandwidthLatencyTest; rerun with NCCL_P2P_DISABLE=1 as a test: correct results then"
            + " point at P2P.";
    String rdma =
        "Rerun with NCCL_NET_GDR_LEVEL=LOC (GPUDirect RDMA off) as a test; upgrade the driver and"
            + " nvidia-peermem/nv_peer_mem; check dmesg on both nodes.";
    String bug = "Upgrade NCCL and the driver, and rerun the same test.";
    if (path == null) {
      return pcie + " " + rdma + " " + bug;
    }
    return switch (path) {
      case PCIE -> pcie + " " + bug;
      case IB, EFA -> rdma + " " + bug;
      default -> bug + " " + pcie;
    };
  }
}
