package io.topolens.perf;

import java.util.Locale;

/**
 * How data parallelism shares model state, and which collectives that costs per step.
 *
 * <ul>
 *   <li>DDP: one all_reduce of the gradients per optimizer step (no_sync during accumulation).
 *   <li>ZeRO-1 (DeepSpeed): gradients reduce-scattered at the accumulation boundary, updated
 *       parameters all-gathered after the optimizer step.
 *   <li>ZeRO-2: gradients reduce-scattered every micro-step, parameters all-gathered after the
 *       step.
 *   <li>ZeRO-3 and FSDP (FULL_SHARD): per micro-step an all_gather of the parameters before
 *       forward, another before backward, and a reduce_scatter of the gradients (ZERO, FSDP-API,
 *       DS-STAGE3).
 * </ul>
 */
public enum Strategy {
  DDP("DDP"),
  ZERO1("ZeRO-1"),
  ZERO2("ZeRO-2"),
  ZERO3("ZeRO-3"),
  FSDP("FSDP");

  private final String label;

  Strategy(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** Whether parameters are sharded (gathered per micro-step). */
  public boolean shardsParameters() {
    return this == ZERO3 || this == FSDP;
  }

  /** Whether CPU offload runs DeepSpeed's CPU Adam (else PyTorch's). */
  public boolean deepSpeed() {
    return this == ZERO1 || this == ZERO2 || this == ZERO3;
  }

  /**
   * Parses {@code ddp}, {@code fsdp}, {@code zero3}, {@code zero-3}, {@code 3} (a ZeRO stage) and
   * {@code 0} (DDP).
   */
  public static Strategy parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    return switch (t) {
      case "ddp", "0", "zero0" -> DDP;
      case "1", "zero1" -> ZERO1;
      case "2", "zero2" -> ZERO2;
      case "3", "zero3" -> ZERO3;
      case "fsdp", "fullshard" -> FSDP;
      default ->
          throw new IllegalArgumentException(
              "unknown strategy \""
                  + text
                  + "\" (ddp, zero1, zero2, zero3 or fsdp; 0-3 for --zero)");
    };
  }
}
