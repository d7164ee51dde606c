package io.topolens.diagnose.rules;

import io.topolens.catalog.XidCode;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.GpuXid;
import io.topolens.model.Job;
import io.topolens.model.Rank;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code gpu-xid}: the NVIDIA driver reported a GPU error in the inputs (a pasted dmesg: {@code
 * NVRM: Xid (PCI:0000:3b:00): 79, ...}, {@code GPU has fallen off the bus}) or nvidia-smi could not
 * reach a GPU: each GPU by PCI address and, where NCCL's init lines print that busId, its process
 * and CUDA device, with what NVIDIA's documentation says the Xid means and to do (xid-errors.json).
 * An error when a GPU fault is among them; a warning for application errors; Xid 45 alone (cleanup
 * after another error or a killed process) is information.
 */
public final class GpuXidRule implements Rule {

  @Override
  public String id() {
    return "gpu-xid";
  }

  @Override
  public List<Finding> check(Job job) {
    if (job.gpuErrors().isEmpty()) {
      return List.of();
    }
    Map<String, List<GpuXid>> byGpuAndCode = new LinkedHashMap<>();
    for (GpuXid x : job.gpuErrors()) {
      byGpuAndCode.computeIfAbsent(x.pciBus() + "|" + x.xid(), k -> new ArrayList<>()).add(x);
    }
    Severity severity = Severity.INFO;
    List<String> says = new ArrayList<>();
    List<String> actions = new ArrayList<>();
    List<Evidence> evidence = new ArrayList<>();
    for (List<GpuXid> same : byGpuAndCode.values()) {
      GpuXid x = same.get(0);
      Optional<XidCode> code = XidCode.of(x.xid());
      severity = max(severity, severity(x, code));
      says.add(gpu(job, x) + ": " + what(x, code) + " (" + same.size() + " line(s))");
      if (code.isEmpty() && x.xid() != GpuXid.NO_XID && !actions.contains(LOOK_UP)) {
        actions.add(LOOK_UP);
      }
      code.map(XidCode::action)
          .filter(a -> !a.isEmpty())
          .map(a -> "Xid " + x.xid() + ": " + a + " (" + code.get().source() + ").")
          .filter(a -> !actions.contains(a))
          .ifPresent(actions::add);
      evidence.add(x.evidence());
    }
    return List.of(
        new Finding(
            id(),
            severity,
            title(job),
            String.join("; ", says) + ". " + consequence(job) + followsFrom(job),
            evidence,
            String.join(" ", actions) + (severity == Severity.ERROR ? DRAIN : "")));
  }

  private static String title(Job job) {
    boolean lost =
        job.gpuErrors().stream()
            .anyMatch(x -> x.xid() == GpuXid.NO_XID || x.xid() == FALLEN_OFF_THE_BUS);
    return lost
        ? "A GPU fell off the bus: the NVIDIA driver lost it"
        : "The NVIDIA driver reported GPU errors (Xid)";
  }

  /** What to do for an Xid the catalog does not hold. */
  private static final String LOOK_UP =
      "Look the Xid up in NVIDIA's XID Errors documentation"
          + " (https://docs.nvidia.com/deploy/xid-errors/index.html) and watch whether it recurs on the"
          + " same GPU (dmesg -T | grep -i xid).";

  /** What to do for a GPU fault, after NVIDIA's action for each Xid. */
  private static final String DRAIN =
      " Find the GPU on its node (nvidia-smi -q -i ADDRESS, dmesg -T | grep -i xid), drain the node"
          + " from the scheduler until the GPU is reset or the node rebooted, and rerun the job on"
          + " healthy GPUs.";

  /** nverror.h's ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS. */
  private static final int FALLEN_OFF_THE_BUS = 79;

  private static final int NVLINK = 74;

  private static Severity severity(GpuXid x, Optional<XidCode> code) {
    if (x.xid() == GpuXid.NO_XID || code.isEmpty()) {
      return x.xid() == GpuXid.NO_XID ? Severity.ERROR : Severity.WARN;
    }
    return switch (code.get().role()) {
      case CAUSE -> Severity.ERROR;
      case APPLICATION -> Severity.WARN;
      case CONSEQUENCE -> Severity.INFO;
    };
  }

  private static Severity max(Severity a, Severity b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /** The GPU by PCI address, and the process and CUDA device NCCL gave that busId. */
  private static String gpu(Job job, GpuXid x) {
    if (x.pciBus() == null) {
      return "a GPU";
    }
    List<String> ranks =
        job.ranks().stream()
            .filter(r -> x.isBusId(r.busId()))
            .map(Rank::id)
            .map(id -> id.host() + ":" + id.pid() + " cudaDev " + id.cudaDev())
            .distinct()
            .toList();
    return "the GPU at PCI "
        + x.address()
        + (ranks.isEmpty() ? "" : " (" + String.join(", ", ranks) + ")");
  }

  private static String what(GpuXid x, Optional<XidCode> code) {
    if (x.xid() == GpuXid.NO_XID) {
      return "nvidia-smi cannot reach it (Unable to determine the device handle), as after Xid 79";
    }
    if (code.isEmpty()) {
      return "Xid "
          + x.xid()
          + ", a code topolens's catalog does not explain (see NVIDIA's XID Errors page)";
    }
    XidCode c = code.get();
    String role =
        switch (c.role()) {
          case CAUSE -> "";
          case APPLICATION -> "; NVIDIA counts it an application error, the GPU stays healthy";
          case CONSEQUENCE ->
              "; not a cause: it follows another error or a process that was ended (killed), look for what came before it";
        };
    return "Xid " + c.xid() + " (" + c.name() + "): " + c.meaning() + role;
  }

  /** What NCCL does when these errors hit a GPU it uses. */
  private static String consequence(Job job) {
    boolean lost =
        job.gpuErrors().stream()
            .anyMatch(x -> x.xid() == GpuXid.NO_XID || x.xid() == FALLEN_OFF_THE_BUS);
    boolean nvlink = job.gpuErrors().stream().anyMatch(x -> x.xid() == NVLINK);
    String s = "";
    if (lost) {
      s +=
          "A GPU that fell off the bus fails every CUDA call made on it: NCCL on that GPU reports"
              + " ncclUnhandledCudaError (unhandled cuda error) or its collectives hang until the"
              + " framework's watchdog times out, and the other ranks then lose their peer"
              + " (ncclRemoteError, Connection closed by remote peer, timeouts): consequences, not"
              + " causes. ";
    }
    if (nvlink) {
      s +=
          "An NVLink error breaks NCCL's P2P/NVLS transfers between the GPUs on that link: NCCL"
              + " fails with an unhandled cuda error or hangs. ";
    }
    return s;
  }

  /** Whether the inputs also hold NCCL's failure, which the errors above explain. */
  private static String followsFrom(Job job) {
    int reports = job.failures().size() + job.timeouts().size();
    if (reports == 0) {
      return "";
    }
    return "The NCCL failure these inputs also report ("
        + reports
        + " framework report(s) of a failed or timed-out NCCL call) follows from the GPU error on"
        + " the rank of that GPU; fix the GPU first.";
  }
}
