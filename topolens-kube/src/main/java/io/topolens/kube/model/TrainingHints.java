package io.topolens.kube.model;

/**
 * What a manifest lets topolens guess about the training itself, each with the line it was read
 * from.
 *
 * @param params model parameters, read from a model name such as {@code Llama-3-8B}; null if none
 * @param offload what a DeepSpeed or FSDP setting offloads to host memory; null if none is named
 */
public record TrainingHints(Located<Double> params, Located<OffloadMode> offload) {
  public static TrainingHints none() {
    return new TrainingHints(null, null);
  }
}
