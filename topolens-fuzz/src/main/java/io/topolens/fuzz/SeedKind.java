package io.topolens.fuzz;

/** What a seed is, which decides the commands its mutants are given to. */
enum SeedKind {
  /** Anything diagnose, topo, bench and report read: logs, topo -m, XML dumps, nccl-tests. */
  INPUT,
  /** predict's and compare's YAML (--config). */
  PERF_CONFIG,
  /** Kubernetes manifests (lint). */
  MANIFEST,
  /** Hardware catalog JSON (--catalog). */
  CATALOG,
  /**
   * An experiment's results.json, in a copy of its folder (report, validate-model --experiment).
   */
  EXPERIMENT_RESULTS,
  /** One-GPU measurements, JSON lines (validate-model PATH). */
  STEP_MEASUREMENTS
}
