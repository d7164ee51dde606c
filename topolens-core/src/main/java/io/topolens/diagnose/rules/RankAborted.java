package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code rank-aborted}: a rank ended by SIGABRT (torchrun's {@code exitcode: -6}, {@code Signal 6
 * (SIGABRT)}, DeepSpeed's {@code return code = -6}, Open MPI's {@code exited on signal 6
 * (Aborted)}, C++'s {@code terminate called after throwing an instance of 'T'}). Where the log
 * shows why, it says so: PyTorch's watchdog taking the process down after a collective timeout or
 * an NCCL error, or a C++ exception nothing caught; a warning where the log shows the failure it
 * follows (a timeout, an NCCL error, another finding's lines), else an error.
 */
public final class RankAborted extends WarningRule {

  public RankAborted() {
    super(Severity.ERROR, NcclWarning.Kind.ABORTED);
  }

  @Override
  public String id() {
    return "rank-aborted";
  }

  @Override
  String title() {
    return "A rank aborted (SIGABRT)";
  }

  @Override
  String explanation() {
    return "A rank's process ended by SIGABRT (exit code -6): the process aborted itself. In a PyTorch job that is most often ProcessGroupNCCL's watchdog taking the process down after a collective timed out or NCCL reported an error (torch prints `Watchdog caught collective operation timeout` or `Process group watchdog thread terminated with exception` in that rank's log first), otherwise a C++ exception nothing caught (`terminate called after throwing an instance of ...`) or a failed assertion in native code. The launcher's line only reports the signal: the rank's own lines before it say which.";
  }

  @Override
  String fix() {
    return "Read the log of the rank the launcher names (its stderr, or TORCHELASTIC_ERROR_FILE / the `error_file` torchrun lists) for the line before the abort: a watchdog timeout or NCCL error there is the cause to follow (NCCL_DEBUG=INFO, TORCH_NCCL_TRACE_BUFFER_SIZE and TORCH_NCCL_DUMP_ON_TIMEOUT=1 for the flight recorder); a `terminate called after throwing` names the exception; with neither, rerun with PYTHONFAULTHANDLER=1 or core dumps (ulimit -c unlimited) for the stack.";
  }

  /** What the rest of the log says the abort was: the watchdog's, or none found. */
  private static boolean watchdog(Job job, List<NcclWarning> hits) {
    return !job.timeouts().isEmpty()
        || !job.watchdog().isEmpty()
        || job.warnings().stream().anyMatch(w -> w.kind() == NcclWarning.Kind.WATCHDOG_STUCK)
        || job.failures().stream()
            .anyMatch(f -> f.evidence() != null && f.evidence().text().contains("watchdog"))
        || hits.stream()
            .anyMatch(w -> w.detail() instanceof NcclWarning.Detail.Thrown t && t.watchdog());
  }

  /** The exceptions the lines name, other than the watchdog's. */
  private static List<String> thrown(List<NcclWarning> hits) {
    List<String> out = new ArrayList<>();
    for (NcclWarning w : hits) {
      if (w.detail() instanceof NcclWarning.Detail.Thrown t
          && !t.watchdog()
          && !out.contains(t.type())) {
        out.add(t.type());
      }
    }
    return out;
  }

  /** Whether the log shows a failure of another kind, which the abort then follows. */
  private static boolean otherFailure(Job job) {
    return job.showsFailureBeside(NcclWarning.Kind.ABORTED);
  }

  @Override
  Severity severity(Job job, List<NcclWarning> hits) {
    // the watchdog's abort, or an exception thrown on another failure, is that failure's
    // consequence: the rule that names it carries the error
    return watchdog(job, hits) || otherFailure(job) ? Severity.WARN : Severity.ERROR;
  }

  @Override
  Context context(Job job, List<NcclWarning> hits) {
    List<Evidence> lines = new ArrayList<>();
    if (!job.timeouts().isEmpty()) {
      lines.add(job.timeouts().getFirst().evidence());
    } else if (!job.watchdog().isEmpty()) {
      lines.add(job.watchdog().getFirst().evidence());
    }
    if (watchdog(job, hits)) {
      return new Context(
          "Here it was PyTorch's watchdog: the log shows a collective timeout or an NCCL error the"
              + " watchdog caught, after which ProcessGroupNCCL takes the whole process down"
              + " (\"To avoid data inconsistency, we are taking the entire process down\") and"
              + " the launcher sees SIGABRT. The abort is the consequence; the timeout or error is"
              + " what to follow (collective-timeout, nccl-error and the rules they point to).",
          lines);
    }
    List<String> thrown = thrown(hits);
    String after =
        otherFailure(job)
            ? " The log shows a failure before it (the other findings): the abort most likely"
                + " follows from it, so that is the cause to follow."
            : "";
    if (!thrown.isEmpty()) {
      return new Context(
          "Here it was a C++ exception nothing caught ("
              + String.join(", ", thrown)
              + "): std::terminate aborts the process; the exception's message, printed after"
              + " `what():`, is the cause."
              + after,
          List.of());
    }
    return after.isEmpty() ? null : new Context(after.strip(), List.of());
  }

  @Override
  String title(List<NcclWarning> hits) {
    List<String> thrown = thrown(hits);
    return thrown.isEmpty()
        ? title()
        : title() + " on a C++ exception nothing caught (" + String.join(", ", thrown) + ")";
  }
}
