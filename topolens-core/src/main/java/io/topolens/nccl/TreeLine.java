package io.topolens.nccl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * NCCL's {@code Trees [0] 2/-1/-1->0->-1 [1] ...} line read in one pass over its characters, for
 * the plain form NCCL prints (numbers, slashes and arrows, spaces only around the channel tags): a
 * big job prints one line of 24 or more channels per rank, which {@code MessageParser}'s reading
 * cuts into a dozen strings a channel. Anything else (signs, spaces inside a channel, numbers past
 * nine digits, a damaged channel) is left to {@code MessageParser.treesSlowly}, which reads every
 * form; where this reads a line, the event is the one that gives ({@code TreeLineTest}).
 */
final class TreeLine {
  private TreeLine() {}

  /** Most numbers a part of a channel may hold here (NCCL_MAX_TREE_ARITY is 3). */
  private static final int MAX_PART = 8;

  /** The event, or null where the line is not in the plain form. */
  static NcclEvent read(String m) {
    Channels channels = new Channels();
    int[][] parts = new int[3][MAX_PART];
    int[] counts = new int[3];
    int i = m.indexOf('[');
    while (i >= 0) {
      int close = m.indexOf(']', i);
      if (close < 0) {
        return null;
      }
      int next = m.indexOf('[', close);
      int end = next < 0 ? m.length() : next;
      int p = close + 1;
      while (p < end && m.charAt(p) == ' ') {
        p++;
      }
      while (end > p && m.charAt(end - 1) == ' ') {
        end--;
      }
      for (int k = 0; k < 3; k++) {
        if (k > 0) {
          if (p + 1 >= end || m.charAt(p) != '-' || m.charAt(p + 1) != '>') {
            return null;
          }
          p += 2;
        }
        counts[k] = 0;
        while (true) {
          if (counts[k] == MAX_PART) {
            return null;
          }
          long read = number(m, p, end);
          if (read < 0) {
            return null;
          }
          parts[k][counts[k]++] = (int) read;
          p = (int) (read >>> 32);
          if (p < end && m.charAt(p) == '/') {
            p++;
          } else {
            break;
          }
        }
      }
      if (p != end || counts[1] != 1) {
        return null;
      }
      // children->rank->parent (2.7+) unless the first part is one number and the last several
      int children = counts[0] > 1 || counts[2] == 1 ? 0 : 2;
      int parent = 2 - children;
      if (counts[parent] != 1) {
        return null;
      }
      int[] entry = new int[1 + counts[children]];
      entry[0] = parts[parent][0];
      System.arraycopy(parts[children], 0, entry, 1, counts[children]);
      if (Arrays.equals(entry, channels.last())) {
        entry = channels.last(); // one array for a run of alike channels
      }
      if (!channels.add(parts[1][0], entry)) {
        return null;
      }
      i = next;
    }
    return channels.event();
  }

  /** The channels of one {@code Trees} line as they are read, all of one rank. */
  static final class Channels {
    private final List<int[]> list = new ArrayList<>();
    private int rank = Integer.MIN_VALUE;

    /** Adds a channel of rank {@code r}; false where the line named another rank before. */
    boolean add(int r, int[] entry) {
      if (rank != Integer.MIN_VALUE && rank != r) {
        return false;
      }
      rank = r;
      list.add(entry);
      return true;
    }

    /** The channel read last, or null. */
    int[] last() {
      return list.isEmpty() ? null : list.get(list.size() - 1);
    }

    /** The line's event, or null where it named no channel. */
    NcclEvent event() {
      return list.isEmpty() ? null : new NcclEvent.Trees(rank, list);
    }
  }

  /**
   * Reads an optional minus and one to nine digits from {@code p}: where they end in the high half
   * and the value in the low half, or -1.
   */
  private static long number(String m, int p, int end) {
    boolean negative = p < end && m.charAt(p) == '-';
    int at = negative ? p + 1 : p;
    int v = 0;
    int digits = 0;
    while (at < end && digits < 10) {
      char c = m.charAt(at);
      if (c < '0' || c > '9') {
        break;
      }
      v = v * 10 + (c - '0');
      digits++;
      at++;
    }
    if (digits == 0 || digits > 9) {
      return -1;
    }
    return ((long) at << 32) | ((negative ? -v : v) & 0xFFFFFFFFL);
  }
}
