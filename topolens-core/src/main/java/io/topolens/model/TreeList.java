package io.topolens.model;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * A communicator's {@link Tree}s held as three ints' worth each (channel, rank and the tree line's
 * ranks, an array shared by every channel and rank that printed the same line): a 68,000-rank job
 * has 1.6 million of them, which as records took a sixth of a 256 MiB heap. A {@link Tree} is made
 * when it is read. Read-only once {@link Builder#build built}.
 */
public final class TreeList extends AbstractList<Tree> implements RandomAccess {
  private final int[] channels;
  private final int[] ranks;

  /** Per tree, its line's ranks: the parent (-1 for the root), then the children (-1 for none). */
  private final int[][] lines;

  private TreeList(int[] channels, int[] ranks, int[][] lines) {
    this.channels = channels;
    this.ranks = ranks;
    this.lines = lines;
  }

  @Override
  public Tree get(int i) {
    int[] v = lines[i];
    List<Integer> children = new ArrayList<>(v.length - 1);
    for (int k = 1; k < v.length; k++) {
      if (v[k] >= 0) {
        children.add(v[k]);
      }
    }
    return new Tree(channels[i], ranks[i], v[0], List.copyOf(children));
  }

  @Override
  public int size() {
    return channels.length;
  }

  /**
   * Collects trees, best in their order (by rank, then channel) and as many as said: then {@link
   * #build} copies nothing. Trees in another order are sorted.
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
      if (sorted()) {
        if (size == channels.length) {
          return new TreeList(channels, ranks, lines);
        }
        return new TreeList(
            Arrays.copyOf(channels, size), Arrays.copyOf(ranks, size), Arrays.copyOf(lines, size));
      }
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
      return new TreeList(c, r, l);
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
