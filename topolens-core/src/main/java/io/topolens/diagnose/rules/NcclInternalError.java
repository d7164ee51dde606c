package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code nccl-internal-error}: NCCL failed one of its own consistency checks ({@code P2p schedule
 * creation has bugs.}, {@code Internal error : tree already has 3 children}, {@code Proxy append
 * mismatch}, {@code ncclSocketSend: pass NULL socket}, {@code Failed to determine local ranks}):
 * nothing the line names is the user's to set; the state NCCL built itself is wrong.
 */
public final class NcclInternalError extends WarningRule {

  public NcclInternalError() {
    super(Severity.ERROR, NcclWarning.Kind.INTERNAL);
  }

  /**
   * An error: NCCL returns ncclInternalError after these checks, which fails the init, connection
   * or collective that ran them, and where no other line of the file names a failure this finding
   * is the only one that says the job stopped. A warning where the same file shows an earlier
   * failure of NCCL's: the checks then fired while NCCL unwound it, and that failure's own finding
   * is the error.
   */
  @Override
  Severity severity(Job job, List<NcclWarning> hits) {
    return earlierFailures(job, hits).isEmpty() ? Severity.ERROR : Severity.WARN;
  }

  @Override
  public String id() {
    return "nccl-internal-error";
  }

  @Override
  String title() {
    return "NCCL failed one of its own consistency checks";
  }

  @Override
  String explanation() {
    return "These lines are NCCL's checks of state it built itself (its proxy's operation lists, the"
        + " schedule and trees it computed, its socket and request bookkeeping, the ranks it grouped"
        + " by host from the hashes every rank sent), not of anything the job configured; NCCL"
        + " returns ncclInternalError after most of them. Such a check fails for one of three"
        + " reasons: ranks run different NCCL builds and exchanged structures of different layouts"
        + " (a container image and a pip wheel, a node with another libnccl on its library path),"
        + " a bug of this NCCL release, or an earlier failure NCCL was unwinding (a connection that"
        + " closed, a communicator being aborted): where another finding names a failure before"
        + " these lines, that failure is the cause.";
  }

  @Override
  Context context(Job job, List<NcclWarning> hits) {
    List<Evidence> before = earlierFailures(job, hits);
    if (!before.isEmpty()) {
      return new Context(
          "The same log shows another of NCCL's failures before them (cited here): these checks most"
              + " likely fired while NCCL unwound it; read its finding first.",
          before);
    }
    List<String> versions = job.ncclVersions();
    if (versions.size() > 1) {
      return new Context(
          "The ranks print "
              + versions.size()
              + " NCCL versions ("
              + String.join(", ", versions)
              + "): mixed builds are the likely cause (version-mismatch names them).",
          List.of());
    }
    return versions.size() == 1
        ? new Context(
            "The log prints one NCCL version, " + versions.get(0) + ": report it with the lines.",
            List.of())
        : null;
  }

  /**
   * NCCL's warnings of a known kind, other than these checks, printed earlier in a file where a
   * check fired (the first of each file).
   */
  private static List<Evidence> earlierFailures(Job job, List<NcclWarning> hits) {
    List<Evidence> out = new ArrayList<>();
    for (NcclWarning w : job.warnings()) {
      Evidence e = w.evidence();
      if (e == null
          || w.kind() == NcclWarning.Kind.INTERNAL
          || w.kind() == NcclWarning.Kind.OTHER
          || out.stream().anyMatch(o -> o.file().equals(e.file()))) {
        continue;
      }
      boolean earlier =
          hits.stream()
              .map(NcclWarning::evidence)
              .anyMatch(h -> h.file().equals(e.file()) && h.line() > e.line());
      if (earlier) {
        out.add(e);
      }
    }
    return out;
  }

  @Override
  String fix() {
    return "Make every rank load the same libnccl: print it on each node (NCCL_DEBUG=VERSION, or"
        + " python -c 'import torch; print(torch.cuda.nccl.version())') and remove other copies from"
        + " LD_LIBRARY_PATH and the image; fix any earlier failure first; then try the newest NCCL"
        + " release (its release notes list the bugs fixed), and if the check still fails, report it"
        + " at github.com/NVIDIA/nccl/issues with the NCCL version, the WARN line and the whole log of"
        + " every rank run with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=ALL.";
  }
}
