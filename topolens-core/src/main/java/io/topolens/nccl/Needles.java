package io.topolens.nccl;

import java.util.List;

/**
 * Every byte string that makes the reader look at a line: a line holding none of them is counted
 * and skipped unread. The one list the line filter uses (keep new forms here, never in a parser),
 * ordered by how common the lines are: NCCL's own debug lines first, so the common path stays one
 * search; the rest are framework lines that tell an NCCL failure without an NCCL header.
 */
public final class Needles {
  private Needles() {}

  /** {@code host:pid:tid [dev] NCCL INFO|WARN ...} and headerless {@code [3] NCCL INFO ...}. */
  public static final String DEBUG_LINE = "NCCL ";

  /** PyTorch's {@code WorkNCCL(SeqNum=...)} watchdog lines and {@code ProcessGroupNCCL} errors. */
  public static final String UPPER = "NCCL";

  /**
   * NCCL's result names as frameworks print them ({@code ncclUnhandledCudaError: ...}, {@code
   * ncclSystemError}, {@code ncclInternalError}, {@code ncclRemoteError}, {@code
   * ncclInvalidUsage}), and {@code ncclCommInitRank failed: ...}: none holds the bytes {@code
   * NCCL}.
   */
  public static final String LOWER = "nccl";

  /** PyTorch prints NCCL's last error on the line after this one. */
  public static final String LAST_ERROR = "Last error:";

  /**
   * NCCL's NVLS failure as users paste it without any NCCL word: {@code Failed to bind NVLink SHARP
   * (NVLS) Multicast memory ...}.
   */
  public static final String NVLS = "NVLink SHARP";

  /** All of them, in the order the filter tries them; index 0 is NCCL's own debug line. */
  public static final List<String> ALL = List.of(DEBUG_LINE, UPPER, LOWER, LAST_ERROR, NVLS);
}
