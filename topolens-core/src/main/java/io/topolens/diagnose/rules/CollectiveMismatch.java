package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.model.PrintedVersion;
import java.util.List;
import java.util.Locale;

/**
 * {@code collective-mismatch}: peers disagree on the size or order of what they exchange ({@code
 * collective mismatch error}, {@code message truncated}, {@code Mismatched collective detected}).
 * Bootstrap's own {@code bootstrap.cc:N NCCL WARN Message truncated : received A bytes instead of
 * B} comes from the socket exchange that sets up a communicator, which carries no collective's
 * data: it is told apart and never called a collective mismatch.
 */
public final class CollectiveMismatch extends WarningRule {

  public CollectiveMismatch() {
    super(Severity.ERROR, NcclWarning.Kind.COLLECTIVE_MISMATCH);
  }

  @Override
  public String id() {
    return "collective-mismatch";
  }

  @Override
  String title() {
    return "Ranks disagree on what they exchange";
  }

  @Override
  String explanation() {
    return "A peer sent more (or less) than this rank posted to receive: NCCL's transport saw the sizes differ (IB: collective mismatch error, local size vs remote size; sockets and bootstrap: message truncated, receiving N bytes instead of M; NCCL 2.4: Mismatched collective detected). The ranks did not issue the same collectives with the same sizes in the same order, or they run with different settings that change how NCCL splits the data (NCCL_PROTO, NCCL_ALGO, NCCL_BUFFSIZE, other NCCL_* set on some ranks only) or different NCCL versions. The network is not the cause.";
  }

  /**
   * Whether a line is bootstrap's: NCCL 2.4 and later print the source file before {@code NCCL
   * WARN}, and bootstrap.cc's socket receive is the one that says {@code Message truncated :
   * received} (net_socket.cc says {@code receiving}, net_ib.cc {@code collective mismatch}).
   */
  static boolean bootstrap(NcclWarning w) {
    return w.evidence() != null
        && w.evidence().text().toLowerCase(Locale.ROOT).contains("bootstrap.cc:")
        && w.message().toLowerCase(Locale.ROOT).contains("message truncated");
  }

  private static boolean allBootstrap(List<NcclWarning> hits) {
    return hits.stream().allMatch(CollectiveMismatch::bootstrap);
  }

  @Override
  String title(List<NcclWarning> hits) {
    return allBootstrap(hits)
        ? "NCCL's bootstrap received a larger message than expected while setting up a communicator"
        : title();
  }

  private static final String BOOTSTRAP =
      "NCCL's bootstrap (bootstrap.cc: the socket exchange between ranks that sets up a"
          + " communicator, before any collective runs) received a message larger than the one"
          + " this rank expected. No collective's data passes through bootstrap, so the ranks'"
          + " collective calls, sizes and order are not the cause, and neither is the network"
          + " (the bytes arrived). Ranks that run different NCCL versions exchange different"
          + " messages; and NCCL 2.19.3 itself failed intermittently at init (about one run in"
          + " ten, PyTorch NGC 23.12 on AWS p4de) with 'Message truncated : received 256 bytes"
          + " instead of 4', which downgrading to NCCL 2.18.6 resolved (the reporter of"
          + " https://github.com/NVIDIA/nccl/issues/1176).";

  /**
   * Whether a line is a framework's own check of the collectives across ranks (PyTorch's
   * TORCH_DISTRIBUTED_DEBUG=DETAIL wrapper, Accelerate's debug mode) rather than NCCL's transport.
   */
  static boolean framework(NcclWarning w) {
    String m = w.message();
    return m.contains("mismatch between collectives")
        || m.contains("op.preamble.length <= op.nbytes")
        || m.contains("verifying shape tensors for collective")
        || m.contains("due to shape mismatches");
  }

  private static final String FRAMEWORK =
      "The framework compared the collective each rank was about to run and found them different"
          + " (PyTorch's TORCH_DISTRIBUTED_DEBUG=DETAIL check: 'Detected mismatch between"
          + " collectives on ranks', with the aspects that differ, sequence number, op, tensor"
          + " shapes or types; 'Error when verifying shape tensors'; Accelerate's debug mode:"
          + " 'shape mismatches'): the ranks did not issue the same collectives with the same"
          + " tensors in the same order; Gloo's TCP transport (under PyTorch's gloo backend or"
          + " Horovod) found a peer's message longer than the receive this rank posted ('enforce"
          + " fail ... op.preamble.length <= op.nbytes. A vs B': the peer sent A bytes for a"
          + " tensor of B here). Without the check NCCL would hang or read the wrong"
          + " bytes; the network is not the cause. Different sequence numbers mean one rank ran"
          + " more collectives than another (a code path taken on some ranks only, or ranks of"
          + " one group placed unevenly).";

  @Override
  String explanation(List<NcclWarning> hits) {
    if (allBootstrap(hits)) {
      return BOOTSTRAP;
    }
    if (hits.stream().allMatch(CollectiveMismatch::framework)) {
      return FRAMEWORK;
    }
    return hits.stream().anyMatch(CollectiveMismatch::bootstrap)
        ? explanation() + " The bootstrap line among them is not a collective's: " + BOOTSTRAP
        : explanation();
  }

  @Override
  String fix(List<NcclWarning> hits) {
    String bootstrap =
        "Print NCCL's version on every rank (NCCL_DEBUG=VERSION, or torch.cuda.nccl.version()) and"
            + " run one version everywhere; where that version is 2.19.3 and init fails only"
            + " sometimes, run another NCCL release (the reporter of NVIDIA/nccl issue 1176 went"
            + " back to 2.18.6).";
    if (allBootstrap(hits)) {
      return bootstrap;
    }
    return hits.stream().anyMatch(CollectiveMismatch::bootstrap) ? fix() + " " + bootstrap : fix();
  }

  /** The NCCL versions the log prints, for bootstrap's lines: 2.19.3 is the reported release. */
  @Override
  Context context(Job job, List<NcclWarning> hits) {
    if (hits.stream().noneMatch(CollectiveMismatch::bootstrap)) {
      return null;
    }
    List<PrintedVersion> printed = job.printed(PrintedVersion.Of.NCCL);
    if (printed.isEmpty()) {
      return new Context(
          "This log does not print NCCL's version, so whether it is 2.19.3, or whether the ranks"
              + " run different versions, is not known from it.",
          List.of());
    }
    List<String> versions = printed.stream().map(PrintedVersion::version).distinct().toList();
    String text =
        "This log prints NCCL "
            + String.join(", ", versions)
            + (versions.size() > 1
                ? ": the ranks run different versions."
                : versions.contains("2.19.3") ? ": the release of that report." : ".");
    return new Context(text, List.of(printed.get(0).evidence()));
  }

  @Override
  String fix() {
    return "Make every rank call the same collectives, in the same order, with the same counts and types (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL logs each call to compare; TORCH_DISTRIBUTED_DEBUG=DETAIL checks shapes); set NCCL_* variables identically on all ranks (compare the 'set by environment' lines of each) and run one NCCL version everywhere.";
  }
}
