package io.topolens.nccl;

import io.topolens.model.Direction;
import io.topolens.model.Evidence;
import io.topolens.model.PathDetail;
import io.topolens.model.RankId;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One process's view of one communicator (one {@code comm 0x..} pointer in one process), filled
 * while the log streams. The assembler merges these across processes into communicators.
 */
final class LocalComm {
  final RankId ctx;
  final String ptr;
  final Evidence firstLine;
  final LocalComm parent;
  int rank = -1;
  int nRanks = -1;
  String commId;
  int nNodes = -1;
  int localRanks = -1;
  boolean started;
  boolean completed;
  double bootstrapSeconds = Double.NaN;
  double bootstrapRecvSeconds = Double.NaN;
  double initSeconds = Double.NaN;
  String network;
  Evidence timingLine;
  Boolean pxn;
  Boolean gdr;
  Rings rings = new Rings();

  /** Per channel (0, 1, ...), the tree line's ranks: up, then down (interned: {@link TreeLine}). */
  int[][] trees = NO_TREES;

  private static final int[][] NO_TREES = new int[0][];

  Edges edges = new Edges();

  LocalComm(RankId ctx, String ptr, LocalComm parent, Evidence firstLine) {
    this.ctx = ctx;
    this.ptr = ptr;
    this.parent = parent;
    this.firstLine = firstLine;
  }

  /** Lets go of rings, trees and connections once merged into the job's communicator. */
  void release() {
    rings = null;
    trees = null;
    edges = null;
  }

  /**
   * The ring order of each channel this rank printed, first line of a channel kept: two small
   * arrays, not a map of boxed channels per rank (every rank of a big job prints its rings).
   */
  static final class Rings {
    private int[] channels = new int[0];
    private int[][] orders = new int[0][];
    private int size;

    /** Keeps {@code order.get()} as the ring of {@code channel} unless one is kept already. */
    void putIfAbsent(int channel, Supplier<int[]> order) {
      for (int i = 0; i < size; i++) {
        if (channels[i] == channel) {
          return;
        }
      }
      if (size == channels.length) {
        channels = Arrays.copyOf(channels, Math.max(4, size * 2));
        orders = Arrays.copyOf(orders, channels.length);
      }
      channels[size] = channel;
      orders[size] = order.get();
      size++;
    }

    int size() {
      return size;
    }

    int channel(int i) {
      return channels[i];
    }

    int[] order(int i) {
      return orders[i];
    }
  }

  /**
   * This rank's connections folded over channels, in the order first printed: a rank has one or a
   * few, so two arrays searched in turn (a map of its own per rank took a tenth of the heap of a
   * 68,000-rank job), and a map as well once it has many.
   */
  static final class Edges {
    /** Connections past which a map finds one. */
    private static final int SCAN = 8;

    private EdgeKey[] keys = new EdgeKey[1];
    private EdgeAcc[] accs = new EdgeAcc[1];
    private int size;
    private Map<EdgeKey, EdgeAcc> index;

    EdgeAcc get(EdgeKey key) {
      if (index != null) {
        return index.get(key);
      }
      for (int i = 0; i < size; i++) {
        if (keys[i].equals(key)) {
          return accs[i];
        }
      }
      return null;
    }

    /** Adds a connection {@link #get} did not find. */
    void add(EdgeKey key, EdgeAcc acc) {
      if (size == keys.length) {
        keys = Arrays.copyOf(keys, size * 2);
        accs = Arrays.copyOf(accs, size * 2);
      }
      keys[size] = key;
      accs[size] = acc;
      size++;
      if (index != null) {
        index.put(key, acc);
      } else if (size > SCAN) {
        index = new HashMap<>();
        for (int i = 0; i < size; i++) {
          index.put(keys[i], accs[i]);
        }
      }
    }

    int size() {
      return size;
    }

    EdgeKey key(int i) {
      return keys[i];
    }

    EdgeAcc acc(int i) {
      return accs[i];
    }
  }

  /** Identity of a connection folded over channels. */
  record EdgeKey(int from, int to, Direction direction, String detail) {
    // the record's own equals and hash, written out: the generated ones are linked at their first
    // call by ObjectMethods (method handles spun at run time, which the AOT cache does not hold)
    @Override
    public boolean equals(Object o) {
      return o instanceof EdgeKey k
          && from == k.from
          && to == k.to
          && direction == k.direction
          && Objects.equals(detail, k.detail);
    }

    @Override
    public int hashCode() {
      return ((from * 31 + to) * 31 + Objects.hashCode(direction)) * 31 + Objects.hashCode(detail);
    }
  }

  /** Channels and first line of one folded connection. */
  static final class EdgeAcc {
    final PathDetail path;
    final BitSet channels = new BitSet();
    Evidence evidence;
    final String fromTag;
    final String toTag;
    final RankId printer;

    EdgeAcc(PathDetail path, Evidence evidence, String fromTag, String toTag, RankId printer) {
      this.path = path;
      this.evidence = evidence;
      this.fromTag = fromTag;
      this.toTag = toTag;
      this.printer = printer;
    }
  }
}
