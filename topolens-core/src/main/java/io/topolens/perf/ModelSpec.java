package io.topolens.perf;

import java.util.List;

/**
 * A transformer as the step model needs it. Presets carry the full architecture; a model given by
 * {@code --params/--layers/--hidden} has only those three (the rest null).
 *
 * @param params parameter count
 * @param sources keys of the sources in {@code models.json}, or empty for a user's model
 */
public record ModelSpec(
    String name,
    long params,
    int layers,
    int hidden,
    Integer ffn,
    Integer heads,
    Integer kvHeads,
    Integer vocab,
    Boolean tiedEmbeddings,
    List<String> aliases,
    List<String> sources) {

  public ModelSpec {
    aliases = aliases == null ? List.of() : List.copyOf(aliases);
    sources = sources == null ? List.of() : List.copyOf(sources);
    if (params <= 0 || layers <= 0 || hidden <= 0) {
      throw new IllegalArgumentException("params, layers and hidden must be positive");
    }
  }

  /** A model known only by its size. */
  public static ModelSpec custom(long params, int layers, int hidden) {
    return new ModelSpec(
        "custom", params, layers, hidden, null, null, null, null, null, null, null);
  }

  /**
   * The parameter count a Llama-style architecture implies (attention with grouped KV heads, a
   * gated MLP of three matrices, two norms per layer, a final norm, embeddings and an untied head),
   * or -1 when the architecture is not fully known.
   */
  public long architectureParams() {
    if (ffn == null || heads == null || kvHeads == null || vocab == null) {
      return -1;
    }
    long d = hidden;
    long kv = d * kvHeads / heads;
    long layer = 2 * d * d + 2 * d * kv + 3 * d * ffn + 2 * d;
    long embed = (long) vocab * d * (Boolean.TRUE.equals(tiedEmbeddings) ? 1 : 2);
    return embed + layers * layer + d;
  }
}
