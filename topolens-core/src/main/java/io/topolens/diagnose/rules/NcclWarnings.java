package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;

/**
 * {@code nccl-warning}: WARN lines that no more specific rule covers (peer access, bootstrap
 * connections, plugin messages, anything else), shown so none is lost.
 */
public final class NcclWarnings extends WarningRule {

  public NcclWarnings() {
    super(
        Severity.WARN,
        NcclWarning.Kind.OTHER,
        NcclWarning.Kind.P2P,
        NcclWarning.Kind.SOCKET,
        NcclWarning.Kind.NET_PLUGIN);
  }

  @Override
  public String id() {
    return "nccl-warning";
  }

  @Override
  public boolean catchAll() {
    return true;
  }

  /**
   * NCCL's trace of its bootstrap returning a system error ({@code bootstrap.cc:270 -> 2}) is an
   * INFO line, not a warning: socket-interface reads it beside the interfaces, and alone it says no
   * more than the WARN or failure it unwinds.
   */
  @Override
  boolean elsewhere(Job job, NcclWarning w) {
    // no verbs library: verbs-library-missing says what it is and what it costs here
    if (w.detail() instanceof NcclWarning.Detail.NoVerbsLibrary) {
      return true;
    }
    return w.kind() == NcclWarning.Kind.SOCKET
        && (SocketInterface.bootstrapTrace(w)
            || SocketInterface.glooLoopback(w)
            || SocketInterface.noCommonInterface(w));
  }

  @Override
  String title() {
    return "NCCL printed warnings";
  }

  @Override
  String explanation() {
    return "NCCL printed WARN lines that no more specific finding explains. Read them: a WARN before a failure is"
        + " usually its cause.";
  }

  @Override
  String fix() {
    return "Read the lines shown; the NCCL troubleshooting guide"
        + " (docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html) explains most of them.";
  }
}
