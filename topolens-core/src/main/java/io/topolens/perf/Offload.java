package io.topolens.perf;

import java.util.Locale;

/** What is offloaded to host memory. */
public enum Offload {
  NONE("none"),
  /** Optimizer state and its step on the CPU (DeepSpeed offload_optimizer). */
  OPTIMIZER("optimizer"),
  /** Parameters too (DeepSpeed offload_param; FSDP CPUOffloadPolicy, which always does both). */
  FULL("cpu");

  private final String label;

  Offload(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  public boolean any() {
    return this != NONE;
  }

  /** Parses {@code none}, {@code optimizer}, {@code cpu} / {@code full} / {@code params}. */
  public static Offload parse(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "none", "no", "off", "false" -> NONE;
      case "optimizer", "opt" -> OPTIMIZER;
      case "cpu", "full", "params", "param", "all" -> FULL;
      default ->
          throw new IllegalArgumentException(
              "unknown offload \"" + text + "\" (none, optimizer or cpu)");
    };
  }
}
