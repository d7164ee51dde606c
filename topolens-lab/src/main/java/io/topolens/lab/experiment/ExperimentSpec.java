package io.topolens.lab.experiment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * An experiment as its spec file says it: what runs, where, and the matrix of variants. {@link
 * SpecReader} reads it; a {@link VariantRunner} for {@link #where} runs each variant.
 *
 * @param file the spec file (relative paths in it, such as a training script, are relative to its
 *     folder)
 * @param env variables every variant's ranks get (a variant's own env overrides them)
 * @param train the training command, one argument per item ({@code {python}} and {@code {offload}}
 *     are replaced); empty when {@link #run} has no training
 * @param matrices the {@code variants:} block, or each block of a list of them
 * @param timeout how long one variant (probe and training together) may run before it is killed
 * @param predict the workload and hardware for {@code predict}, in its YAML keys ({@code model},
 *     {@code instance}, {@code strategy}...); each variant adds its layout, nodes, network and
 *     offload. Empty: no prediction
 * @param catalogs catalog files ({@code --catalog}) beside the built-in one, for predict: and the
 *     bench verdicts
 */
public record ExperimentSpec(
    Path file,
    String name,
    Run run,
    Placement where,
    ProbeOptions probe,
    List<String> train,
    Map<String, String> env,
    List<Matrix> matrices,
    Duration timeout,
    Map<String, Object> predict,
    List<Path> catalogs) {

  public ExperimentSpec {
    catalogs = List.copyOf(catalogs);
    predict = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(predict));
    train = List.copyOf(train);
    matrices = List.copyOf(matrices);
    env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
  }

  /** Every variant of every matrix, in order, with unique names. */
  public List<Variant> variants() {
    return Matrix.variants(matrices);
  }

  /** What each variant runs. */
  public enum Run {
    PROBE("probe"),
    TRAIN("train"),
    PROBE_THEN_TRAIN("probe+train");

    private final String label;

    Run(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }

    public boolean probes() {
      return this != TRAIN;
    }

    public boolean trains() {
      return this != PROBE;
    }

    /** {@code probe}, {@code train}, {@code probe+train} (or {@code probe then train}). */
    public static Run parse(String text) {
      String t = text.strip().toLowerCase(java.util.Locale.ROOT).replaceAll("\\s+", " ");
      return switch (t) {
        case "probe" -> PROBE;
        case "train", "training" -> TRAIN;
        case "probe+train", "probe then train", "probe,train", "both" -> PROBE_THEN_TRAIN;
        default ->
            throw new IllegalArgumentException(
                "run \"" + text + "\" is not probe, train or probe+train");
      };
    }
  }

  /** Where the variants run. */
  public sealed interface Placement {}

  /**
   * This host: each emulated pod a group of processes that sees only its GPUs.
   *
   * @param device gpu, cpu, or auto (GPUs when nvidia-smi lists any)
   */
  public record Local(String device) implements Placement {}

  /**
   * A Kubernetes cluster, one variant at a time, planned as {@code topolens plan} plans (or the
   * user's own manifest patched per variant).
   *
   * @param kind trainjob, pytorchjob or mpijob, as {@code plan --kind} takes it; null for plan's
   *     default
   * @param manifest the user's own manifest, or null to plan one
   */
  public record Kubernetes(
      String instance,
      String namespace,
      String image,
      String kind,
      String runtime,
      Path manifest,
      String context)
      implements Placement {}
}
