package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code watchdog-stuck}: PyTorch's heartbeat monitor found the ProcessGroupNCCL watchdog thread
 * making no progress ({@code ProcessGroupNCCL's watchdog got stuck for N seconds without making
 * progress in monitoring enqueued collectives}, {@code Heartbeat monitor timed out! Process will be
 * terminated after dumping debug info.}) and killed the process. Unlike a collective timeout, the
 * watchdog itself hung: it was blocked in a CUDA or NCCL call. Also SGLang's scheduler watchdog
 * ({@code Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)}, earlier
 * releases' {@code Watchdog timeout (self.watchdog_timeout=300)}), which kills the server when its
 * loop stops making progress.
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

  private static final Form SGLANG =
      new Form(
          "atchdog timeout (self.watchdog_timeout=",
          "Here the watchdog is SGLang's: its scheduler's loop made no progress (no batch finished) for watchdog_timeout seconds (--watchdog-timeout, 300 by default), so SGLang dumped its state and killed the server. The loop was blocked in a forward pass that never returned: an NCCL collective of the tensor-parallel group whose peer never came (another rank dead or stuck), a GPU fault or a hung kernel, or a step longer than the timeout.",
          "Read the other ranks' logs and the dump SGLang wrote for the stuck call (py-spy dump --native on a stuck scheduler process shows it); look for Xid errors (dmesg, nvidia-smi) and run with NCCL_DEBUG=INFO for a collective that never finishes; raise --watchdog-timeout only where a step is legitimately that long (a very long prefill, a slow first compile).");

  @Override
  String title(List<NcclWarning> hits) {
    return hits.stream().allMatch(SGLANG::saidBy)
        ? "SGLang's scheduler made no progress for its watchdog timeout and the server was killed"
        : title();
  }

  @Override
  List<Form> forms() {
    return List.of(SGLANG);
  }

  @Override
  String fix() {
    return "Find where the watchdog blocked: py-spy dump --native --pid on a stuck rank (or the stack PyTorch dumps with TORCH_NCCL_DUMP_ON_TIMEOUT=1), nvidia-smi and dmesg for Xid errors or a GPU that stopped answering on that node, NCCL_DEBUG=INFO for a hung NCCL kernel. Raise TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC only if the watchdog is merely slow (a long communicator abort); TORCH_NCCL_ENABLE_MONITORING=0 turns the monitor off but leaves the hang.";
  }
}
