package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code watchdog-stuck}: PyTorch's heartbeat monitor found the ProcessGroupNCCL watchdog thread
 * making no progress ({@code ProcessGroupNCCL's watchdog got stuck for N seconds without making
 * progress in monitoring enqueued collectives}, {@code Heartbeat monitor timed out! Process will be
 * terminated after dumping debug info.}) and killed the process. Unlike a collective timeout, the
 * watchdog itself hung: it was blocked in a CUDA or NCCL call.
 */
public final class WatchdogStuck extends WarningRule {

  public WatchdogStuck() {
    super(Severity.ERROR, NcclWarning.Kind.WATCHDOG_STUCK);
  }

  @Override
  public String id() {
    return "watchdog-stuck";
  }

  @Override
  String title() {
    return "PyTorch's NCCL watchdog thread hung in a CUDA/NCCL call and the process was killed";
  }

  @Override
  String explanation() {
    return "ProcessGroupNCCL's watchdog thread polls every enqueued collective (a CUDA event query) and beats a heartbeat; a second thread, the heartbeat monitor, kills the process when the heartbeat stops for TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC (480 s in the logs of recent releases, 600 s in those of 2.2 and 2.3). A stopped heartbeat means the watchdog itself was blocked inside a CUDA or NCCL call, not that a collective was slow: a GPU or driver that stopped answering (an Xid error, a fallen-off GPU), a CUDA call that waits on a kernel that never finishes (an NCCL kernel whose peer never came), a communicator abort that hangs, or another thread holding a lock the CUDA call needs (the GIL inside a CUDA API such as cudaEventDestroy, a CUDA graph capture). It is a hang of the process, not a timeout of one call: the collective-timeout lines of other ranks are its consequence.";
  }

  @Override
  String fix() {
    return "Find where the watchdog blocked: py-spy dump --native --pid on a stuck rank (or the stack PyTorch dumps with TORCH_NCCL_DUMP_ON_TIMEOUT=1), nvidia-smi and dmesg for Xid errors or a GPU that stopped answering on that node, NCCL_DEBUG=INFO for a hung NCCL kernel. Raise TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC only if the watchdog is merely slow (a long communicator abort); TORCH_NCCL_ENABLE_MONITORING=0 turns the monitor off but leaves the hang.";
  }
}
