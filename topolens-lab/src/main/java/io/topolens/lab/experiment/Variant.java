package io.topolens.lab.experiment;

import io.topolens.perf.Layout;
import java.util.Map;

/**
 * One point of an experiment's matrix: where its ranks go and what it changes.
 *
 * @param name unique within the experiment, made of the values that vary ({@code 2x1}, {@code
 *     1x4-NCCL_P2P_DISABLE=1}, {@code 1x2-r2})
 * @param network efa, eni or ib as the spec wrote it; null when the spec names none
 * @param env variables this variant sets, over the experiment's own
 * @param offload none, optimizer or cpu; null when the spec names none
 * @param repeat 1-based repetition of the same settings
 */
public record Variant(
    String name,
    Layout layout,
    int nodes,
    String network,
    Map<String, String> env,
    String offload,
    int repeat) {

  public Variant {
    env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
  }

  /** Every rank of the variant: pods x GPUs per pod x nodes. */
  public int ranks() {
    return layout.ranksPerNode() * nodes;
  }

  /** The folder name of this variant: its name with characters unsafe in paths replaced. */
  public String dirName() {
    return name.replaceAll("[^A-Za-z0-9._=+-]", "_");
  }
}
