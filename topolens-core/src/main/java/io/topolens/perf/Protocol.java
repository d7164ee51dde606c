package io.topolens.perf;

/** NCCL's protocols, in the column order of its tuning tables. */
public enum Protocol {
  LL,
  LL128,
  SIMPLE;

  /** Column in NCCL's latency tables (LL 0, LL128 1, Simple 2). */
  public int column() {
    return ordinal();
  }
}
