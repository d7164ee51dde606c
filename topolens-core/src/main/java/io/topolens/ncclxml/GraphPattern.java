package io.topolens.ncclxml;

/**
 * NCCL's {@code NCCL_TOPO_PATTERN_*} values, the {@code pattern} of a {@code <graph>}. NCCL 2.x
 * releases before the balanced tree named 1 {@code SPLIT_TREE_LOOP}; 2 to 4 kept their meaning, 5
 * and 6 came with NVLS and CollNet Direct.
 */
public enum GraphPattern {
  /** 1: tree, NIC traffic spread over two GPUs (parent and one child on the first). */
  BALANCED_TREE(1, "balanced tree"),
  /** 2: tree, parent on the first GPU, children on the second. */
  SPLIT_TREE(2, "split tree"),
  /** 3: tree, all NIC traffic through one GPU. */
  TREE(3, "tree"),
  /** 4: ring. */
  RING(4, "ring"),
  /** 5: NVLink SHARP (NVLS) and NVLS+tree. */
  NVLS(5, "nvls"),
  /** 6: CollNet Direct. */
  COLLNET_DIRECT(6, "collnet direct");

  private final int value;
  private final String word;

  GraphPattern(int value, String word) {
    this.value = value;
    this.word = word;
  }

  /** The number NCCL writes. */
  public int value() {
    return value;
  }

  /** The pattern in plain words. */
  public String word() {
    return word;
  }

  /** The pattern of a number, or null for a number NCCL does not define. */
  public static GraphPattern of(int value) {
    for (GraphPattern p : values()) {
      if (p.value == value) {
        return p;
      }
    }
    return null;
  }
}
