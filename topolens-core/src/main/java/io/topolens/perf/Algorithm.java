package io.topolens.perf;

/** NCCL's collective algorithms this model covers. */
public enum Algorithm {
  RING,
  TREE
}
