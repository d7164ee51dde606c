package io.topolens.model;

/**
 * One line of PyTorch's ProcessGroupNCCL watchdog about a timeout that is not the {@code WorkNCCL}
 * line itself: where the rank stood, or who timed out first.
 *
 * @param kind which line it is
 * @param rank the reporting rank in its process group, or -1 when not printed
 * @param seq the call that timed out ({@code Timeout at NCCL work: N}), or -1
 * @param lastEnqueued the last call the rank had enqueued, or -1 when not printed
 * @param lastCompleted the last call the rank saw complete, or -1 when not printed (PyTorch prints
 *     -1 too when none completed)
 * @param fromRank the rank whose timeout sent a dump signal ({@code from rank N}); the reporting
 *     rank itself for {@code from this local rank}; -1 when not a dump signal
 * @param timeoutMs the timeout the line prints ({@code Timeout(ms)=60000} of PyTorch 1.8-1.9's
 *     unnumbered line), or -1
 */
public record WatchdogReport(
    Kind kind,
    int rank,
    long seq,
    long lastEnqueued,
    long lastCompleted,
    int fromRank,
    Evidence evidence,
    long timeoutMs) {

  /** A line that prints no timeout. */
  public WatchdogReport(
      Kind kind,
      int rank,
      long seq,
      long lastEnqueued,
      long lastCompleted,
      int fromRank,
      Evidence evidence) {
    this(kind, rank, seq, lastEnqueued, lastCompleted, fromRank, evidence, -1);
  }

  /** The watchdog's lines around a timeout. */
  public enum Kind {
    /**
     * {@code Timeout at NCCL work: 7, last enqueued NCCL work: 8, last completed NCCL work: 6.}
     * (torch 2.2 on): this rank's watchdog timed out call 7.
     */
    TIMEOUT_AT,
    /**
     * {@code Received a dump signal due to a collective timeout from rank 3 | from this local rank
     * and we will try our best to dump the debug info. Last enqueued NCCL work: E, last completed
     * NCCL work: C.} (torch 2.4 on): a rank timed out and told every rank to dump.
     */
    DUMP_SIGNAL,
    /**
     * {@code Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA
     * kernels, subsequent GPU operations might run on corrupted/incomplete data.}: a consequence
     * the watchdog prints before it takes the process down, never a cause of its own.
     */
    DATA_UNSAFE,
    /**
     * The stack trace of the exception {@code WorkNCCL::checkTimeout} builds (C10_BUILD_ERROR:
     * {@code frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<...>) + 0x1d2
     * (...)}, {@code Exception raised from checkTimeout at .../ProcessGroupNCCL.cpp:632}):
     * checkTimeout builds one only when a collective ran past its timeout, so the frame says a
     * timeout even where the {@code Watchdog caught collective operation timeout} line is missing;
     * it names no call, operation or rank. The watchdog's other frames ({@code watchdogHandler()},
     * {@code ncclCommWatchdog()}, {@code Exception raised from ncclCommWatchdog}) come with any
     * exception the watchdog caught (an NCCL or CUDA error too) and are not this.
     */
    TIMEOUT_FRAME,
    /**
     * The watchdog's timeout line cut before its {@code WorkNCCL(...)} fields ({@code [Rank 3]
     * Watchdog caught collective operation timeout:} with the fields on the next line: a terminal's
     * or an editor's wrap, a retyped paste): a collective timed out; which call, operation and
     * ranks are not read.
     */
    TIMEOUT_HEADER,
    /**
     * The watchdog's timeout line of PyTorch 1.8-1.9, which numbers no calls ({@code [Rank 0]
     * Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE, Timeout(ms)=1800000)
     * ran for 1800386 milliseconds before timing out.}, 1.8's blocking wait {@code Caught
     * collective operation timeout: WorkNCCL(OpType=BROADCAST, TensorShape=[1],
     * Timeout(ms)=1800000) ...}): a collective timed out; which call is not said.
     */
    TIMEOUT_UNNUMBERED
  }

  /** Whether a dump signal names another rank as the one that timed out. */
  public boolean fromOtherRank() {
    return kind == Kind.DUMP_SIGNAL && fromRank >= 0 && fromRank != rank;
  }
}
