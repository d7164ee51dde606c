package io.topolens.kube.model;

/**
 * A statement of how many training processes run: per pod ({@code numProcPerNode}, {@code torchrun
 * --nproc_per_node}, {@code slotsPerWorker}, {@code mpirun -N}) or in all ({@code mpirun -np}).
 *
 * @param source what says it, in the manifest's words ({@code trainer.numProcPerNode})
 * @param value the text: a number, or {@code auto}, {@code gpu}, {@code cpu}; null when it is an
 *     unsubstituted placeholder
 * @param perPod true for a per-pod count, false for the total over all pods
 */
public record ProcessCount(String source, Located<String> value, boolean perPod) {

  /** The number, when the value is one. */
  public java.util.OptionalLong number() {
    String v = value.value();
    if (v != null && v.strip().matches("\\d+")) {
      return java.util.OptionalLong.of(Long.parseLong(v.strip()));
    }
    return java.util.OptionalLong.empty();
  }
}
