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

  /** All of them, in the order the filter tries them; index 0 is NCCL's own debug line. */
  public static final List<String> ALL = List.of(DEBUG_LINE, UPPER, LOWER, LAST_ERROR);

  /**
   * The next occurrence of each needle in one block, so that a scan line by line asks only "does
   * any needle start before this line's end?" and searches again only past the lines that had one.
   */
  static final class Finder {
    private final String block;
    private final String[] needles;
    private final int[] next;
    private int nearest;

    Finder(String block, List<String> needles) {
      this.block = block;
      this.needles = needles.toArray(String[]::new);
      this.next = new int[this.needles.length];
      nearest = Integer.MAX_VALUE;
      for (int i = 0; i < next.length; i++) {
        next[i] = find(this.needles[i], 0);
        nearest = Math.min(nearest, next[i]);
      }
    }

    /**
     * Whether a needle starts before {@code end} (the end of the current line); moves past that
     * line. Lines must be asked about in order.
     */
    boolean before(int end) {
      if (nearest >= end) {
        return false;
      }
      nearest = Integer.MAX_VALUE;
      for (int i = 0; i < next.length; i++) {
        if (next[i] < end) {
          next[i] = find(needles[i], end);
        }
        nearest = Math.min(nearest, next[i]);
      }
      return true;
    }

    private int find(String needle, int from) {
      int at = block.indexOf(needle, from);
      return at < 0 ? Integer.MAX_VALUE : at;
    }
  }
}
