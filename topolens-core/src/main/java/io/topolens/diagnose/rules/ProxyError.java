package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code proxy-error}: NCCL's proxy thread failed an operation for a local rank or lost one ({@code
 * [Proxy Service 3] Failed to execute operation Connect from rank 3, retcode 3}, {@code [Service
 * thread] Could not receive type from localRank 2, res=3, closed=1}).
 */
public final class ProxyError extends WarningRule {

  public ProxyError() {
    super(Severity.ERROR, NcclWarning.Kind.PROXY);
  }

  @Override
  public String id() {
    return "proxy-error";
  }

  @Override
  String title() {
    return "NCCL's proxy thread failed an operation or lost a local rank";
  }

  @Override
  String explanation() {
    return "Each process runs a proxy thread that sets up and drives network and shared-memory connections for the ranks of its node; the ranks talk to it through local sockets. The proxy failed an operation for a rank ('Failed to execute operation Connect from rank 3, retcode 3': retcode is an ncclResult_t, 1 unhandled CUDA error, 2 system error, 3 internal error, 5 invalid usage, 6 remote error), or lost the connection to a local rank ('Could not receive type from localRank 2 ... closed=1': that process exited or crashed), or a rank lost its proxy ('ncclProxyCallBlockingUDS ... failed', 'Socket recv failed while polling'). The proxy's failure is a consequence: the cause is the WARN printed just before it by the same process (a transport, CUDA or socket error) or the death of the local rank it names.";
  }

  @Override
  String fix() {
    return "Read the lines printed before the proxy's by the same process, and the log of the local rank it names (its last lines, whether it was killed: dmesg, kubectl describe pod); fix that failure first.";
  }
}
