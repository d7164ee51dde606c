package io.topolens.perf;

/**
 * DeepSpeed ZeRO-3's host work per module (issue 12): before a submodule runs, its pre-forward or
 * pre-backward hook fetches the module's own parameters (an all-gather of the partitions, or a wait
 * on the prefetched one, and the coordinator's trace and bookkeeping), and after it the post hook
 * releases them (DS-PARAM-COORD). That work is per module with parameters and per pass, whatever
 * the module's size, so it is counted from the model's shape and the configuration: modules x
 * passes x {@code zero3.moduleHookS}, the one constant, fitted to public timers (docs/model.md).
 */
public final class Zero3Hooks {
  /** The constant: host seconds per module with parameters per pass. */
  public static final String KEY = "zero3.moduleHookS";

  /** Llama-style layer: q, k, v and o projections, gate, up and down, two norms. */
  static final int GATED_LAYER_MODULES = 9;

  /** GPT-2-style layer: fused qkv and output projections, two MLP matrices, two norms. */
  static final int FUSED_LAYER_MODULES = 6;

  /** Embedding, final norm and output head (a tied head is still a module with a hook). */
  static final int OUTER_MODULES = 3;

  private Zero3Hooks() {}

  /**
   * Modules that own parameters: a preset's architecture (separate q/k/v with grouped KV heads and
   * a gated MLP) gives 9 per layer, a model known only by its size is taken as GPT-2-like, 6 per
   * layer; plus embedding, final norm and head.
   */
  public static int modules(ModelSpec m) {
    return m.layers() * (gated(m) ? GATED_LAYER_MODULES : FUSED_LAYER_MODULES) + OUTER_MODULES;
  }

  /** Whether the model's architecture is known (a preset) rather than assumed GPT-2-like. */
  public static boolean gated(ModelSpec m) {
    return m.ffn() != null && m.kvHeads() != null;
  }

  /**
   * Passes that fetch every module per micro-step: forward, backward, and the recomputed forward.
   */
  public static int passes(boolean checkpointing) {
    return checkpointing ? 3 : 2;
  }

  /** Module fetches per micro-step. */
  public static int perMicroStep(Workload w) {
    return modules(w.model()) * passes(w.checkpointing());
  }

  /** Host seconds per micro-step the hooks take; 0 for anything but ZeRO-3. */
  public static double seconds(PerfConstants k, Workload w) {
    return w.strategy() == Strategy.ZERO3 ? perMicroStep(w) * k.value(KEY) : 0;
  }
}
