package io.topolens.diagnose.rules;

import io.topolens.diagnose.Facts;

/**
 * What a watchdog timeout's own fields say beyond "a rank did not arrive": a timeout the job set
 * below PyTorch's defaults, and the first collective of a process group, where NCCL first moves
 * data over its connections.
 */
final class TimeoutContext {

  /**
   * The smallest default timeout PyTorch ever gave NCCL process groups: 10 minutes from PyTorch 2.2
   * (pytorch/pytorch#110947, ProcessGroupNCCL.hpp's kProcessGroupNCCLDefaultTimeout), 30 minutes
   * before (kBackendDefaultTimeout, default_pg_timeout). A timeout below it was set by the job.
   */
  static final long SMALLEST_DEFAULT_MS = 10 * 60 * 1000;

  private TimeoutContext() {}

  /**
   * A timeout as the line gives it, in seconds, or in milliseconds below a second: {@code
   * Timeout(ms)=1} is 1 ms, not {@code 0.00 s}.
   */
  static String shown(long timeoutMs) {
    return timeoutMs < 1000 ? timeoutMs + " ms" : Facts.seconds(timeoutMs / 1000.0);
  }

  /** Whether the timeout read is below every PyTorch default, so the job set it. */
  static boolean setShort(long timeoutMs) {
    return timeoutMs > 0 && timeoutMs < SMALLEST_DEFAULT_MS;
  }

  /** The explanation of a short timeout, or "" for a timeout not read or not short. */
  static String shortTimeout(long timeoutMs) {
    if (!setShort(timeoutMs)) {
      return "";
    }
    return " The timeout is "
        + shown(timeoutMs)
        + ", below every default PyTorch gives NCCL process groups (30 minutes up to PyTorch 2.1,"
        + " 10 minutes from 2.2 on): the job set it (init_process_group(timeout=...) or new_group,"
        + " or its framework's setting). With a timeout this short, a rank that is merely busy"
        + " between two collectives for longer (rank 0 alone running validation, saving a"
        + " checkpoint, loading or preprocessing data, compiling) makes the others time out"
        + " though nothing is broken: compare the timeout with what the missing ranks were doing"
        + " then.";
  }

  /** The fix for a short timeout, or "". */
  static String shortTimeoutFix(long timeoutMs) {
    if (!setShort(timeoutMs)) {
      return "";
    }
    return "Find where the job sets the timeout of "
        + shown(timeoutMs)
        + " (init_process_group(..., timeout=timedelta(...)); Lightning's"
        + " DDPStrategy(timeout=...); Accelerate's InitProcessGroupKwargs(timeout=...); DeepSpeed's"
        + " init_distributed(timeout=...) or DEEPSPEED_TIMEOUT) and raise it above the longest"
        + " work one rank does alone between collectives, or let the other ranks do that work"
        + " too (or wait at a barrier after it, with a process group of a longer timeout). ";
  }

  /**
   * The first collective of a process group: ranks that never arrived, or a first transfer that
   * never completed. {@code allArrived}: every rank of the group reported this call.
   */
  static String firstCollective(boolean allArrived) {
    return " Call #1 is this process group's first collective, which is also the first time NCCL"
        + " moves data between its ranks (and, from NCCL 2.22, the time it connects them:"
        + " NCCL_RUNTIME_CONNECT). So "
        + (allArrived
            ? "with every rank of the group reporting this call, the ranks did arrive, and the"
                + " likeliest cause is a path NCCL set up that cannot carry data"
            : "besides a rank that never arrived (crashed, still loading, on another code path),"
                + " a path NCCL set up that cannot carry data hangs exactly here")
        + ": GPU peer-to-peer over PCIe blocked by ACS or the IOMMU (NCCL's troubleshooting"
        + " guide: IO virtualization \"can interfere with GPU Direct ... causing a significant"
        + " performance reduction or even a hang\"), GPUs in a VM without working P2P, an"
        + " InfiniBand or RoCE fabric that connects but does not deliver.";
  }

  /** The tests that tell the first collective's two causes apart. */
  static String firstCollectiveFix() {
    return "Tell the two apart: the logs of every rank (did each one log this same timeout at call"
        + " #1? then all arrived); rerun with NCCL_P2P_DISABLE=1, then with NCCL_IB_DISABLE=1"
        + " (NCCL_DEBUG=INFO shows the transports each pair uses): if the job then passes, the"
        + " disabled path is at fault: disable ACS on the PCIe switches and check the IOMMU"
        + " (iommu=pt or off; lspci -vvv | grep ACSCtl), the VM's P2P support, or the IB/RoCE"
        + " settings (ibv_devinfo, NCCL_IB_HCA, NCCL_IB_GID_INDEX); nccl-tests' all_reduce_perf on"
        + " the same GPUs shows it without the job. ";
  }
}
