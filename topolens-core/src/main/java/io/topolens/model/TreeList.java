package io.topolens.model;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * A communicator's {@link Tree}s held compactly: per tree only its line's ranks (an array shared by
 * every channel and rank that printed the same line), and per run of trees of one rank on
 * consecutive channels its rank, first channel and first tree. A 68,000-rank job has 1.6 million
 * trees in 68,000 runs: 7 MB, where records took 59 MB. A {@link Tree} is made when it is read.
 * Read-only once {@link Builder#build built}.
 */
public final class TreeList extends AbstractList<Tree> implements RandomAccess {
  /** Per tree, its line's ranks: the parent (-1 for the root), then the children (-1 for none). */
  private final int[][] lines;

  private final int size;

  /** Per run, the index of its first tree, its rank and the channel of its first tree. */
  private final int[] runStart;

  private final int[] runRank;
  private final int[] runChannel;

  private TreeList(int[][] lines, int size, int[] runStart, int[] runRank, int[] runChannel) {
    this.lines = lines;
    this.size = size;
    this.runStart = runStart;
    this.runRank = runRank;
    this.runChannel = runChannel;
  }

  @Override
  public Tree get(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException(i);
    }
    int run = Arrays.binarySearch(runStart, i);
    if (run < 0) {
      run = -run - 2; // the run that starts before i
    }
    int[] v = lines[i];
    List<Integer> children = new ArrayList<>(v.length - 1);
    for (int k = 1; k < v.length; k++) {
      if (v[k] >= 0) {
        children.add(v[k]);
      }
    }
    return new Tree(runChannel[run] + i - runStart[run], runRank[run], v[0], List.copyOf(children));
  }

  @Override
  public int size() {
    return size;
  }

  /**
   * Collects trees, best in their order (by rank, then channel) and as many as said: then {@link
   * #build} copies nothing but the runs. Trees in another order are sorted.
   */
  public static final class Builder {
    private int[] channels;
    private int[] ranks;
    private int[][] lines;
    private int size;

    /** A builder for about {@code expected} trees. */
    public Builder(int expected) {
      channels = new int[Math.max(1, expected)];
      ranks = new int[channels.length];
      lines = new int[channels.length][];
    }

    /** Adds the tree of {@code rank} in {@code channel}: {@code line} is parent, then children. */
    public void add(int channel, int rank, int[] line) {
      if (size == channels.length) {
        channels = Arrays.copyOf(channels, size * 2);
        ranks = Arrays.copyOf(ranks, size * 2);
        lines = Arrays.copyOf(lines, size * 2);
      }
      channels[size] = channel;
      ranks[size] = rank;
      lines[size] = line;
      size++;
    }

    /** The trees by rank, then channel; trees alike in both keep the order they were added in. */
    public TreeList build() {
      if (!sorted()) {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
          order[i] = i;
        }
        mergeSort(order, new int[size], 0, size);
        int[] c = new int[size];
        int[] r = new int[size];
        int[][] l = new int[size][];
        for (int i = 0; i < size; i++) {
          c[i] = channels[order[i]];
          r[i] = ranks[order[i]];
          l[i] = lines[order[i]];
        }
        channels = c;
        ranks = r;
        lines = l;
      }
      int runs = 0;
      for (int i = 0; i < size; i++) {
        if (startsRun(i)) {
          runs++;
        }
      }
      int[] start = new int[runs];
      int[] rank = new int[runs];
      int[] channel = new int[runs];
      int run = 0;
      for (int i = 0; i < size; i++) {
        if (startsRun(i)) {
          start[run] = i;
          rank[run] = ranks[i];
          channel[run] = channels[i];
          run++;
        }
      }
      TreeList built = new TreeList(lines, size, start, rank, channel);
      channels = null;
      ranks = null;
      lines = null;
      return built;
    }

    /** Whether tree {@code i} is not the next channel of the rank of the tree before it. */
    private boolean startsRun(int i) {
      return i == 0 || ranks[i] != ranks[i - 1] || channels[i] != channels[i - 1] + 1;
    }

    private int compare(int a, int b) {
      int c = Integer.compare(ranks[a], ranks[b]);
      return c != 0 ? c : Integer.compare(channels[a], channels[b]);
    }

    private boolean sorted() {
      for (int i = 1; i < size; i++) {
        if (compare(i - 1, i) > 0) {
          return false;
        }
      }
      return true;
    }

    /** A stable sort of {@code a[from, to)} by {@link #compare}, as {@code List.sort} is. */
    private void mergeSort(int[] a, int[] tmp, int from, int to) {
      if (to - from < 2) {
        return;
      }
      int mid = (from + to) >>> 1;
      mergeSort(a, tmp, from, mid);
      mergeSort(a, tmp, mid, to);
      if (compare(a[mid - 1], a[mid]) <= 0) {
        return;
      }
      System.arraycopy(a, from, tmp, from, to - from);
      int i = from;
      int j = mid;
      for (int k = from; k < to; k++) {
        if (j >= to || (i < mid && compare(tmp[i], tmp[j]) <= 0)) {
          a[k] = tmp[i++];
        } else {
          a[k] = tmp[j++];
        }
      }
    }
  }
}
