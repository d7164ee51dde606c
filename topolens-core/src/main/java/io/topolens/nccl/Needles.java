package io.topolens.nccl;

import java.util.List;

/**
 * The strings that make a line worth cutting out of a block: a line that contains none of them is
 * counted and skipped without being decoded. Every reader of lines in NCCL logs (NCCL's own lines,
 * framework errors, step times...) adds the needles of its lines here, in one place, so that the
 * pre-filter never hides a line it should see. Needles are ASCII and searched in the raw bytes (as
 * Latin-1, with the JDK's vectorised {@code String.indexOf}); each needle costs one pass over the
 * text, so prefer a few distinctive ones.
 */
final class Needles {
  private Needles() {}

  /** NCCL's debug lines: {@code host:pid:tid [dev] NCCL INFO ...}. */
  static final String NCCL = "NCCL ";

  /** Every needle, in no particular order. */
  static final List<String> ALL = List.of(NCCL);

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
