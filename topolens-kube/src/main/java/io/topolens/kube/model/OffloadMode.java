package io.topolens.kube.model;

/** What a training job offloads to host memory (DeepSpeed ZeRO / FSDP CPU offload). */
public enum OffloadMode {
  /** Nothing: model states stay on the GPUs. */
  NONE,
  /** The optimizer states (ZeRO offload_optimizer). */
  OPTIMIZER,
  /** Parameters and optimizer states (ZeRO-3 offload_param + offload_optimizer). */
  PARAMS;

  public static OffloadMode parse(String s) {
    return switch (s.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "none", "no" -> NONE;
      case "optimizer" -> OPTIMIZER;
      case "params", "param", "parameters", "all" -> PARAMS;
      default ->
          throw new IllegalArgumentException(
              "offload must be none, optimizer or params, not \"" + s + "\"");
    };
  }
}
