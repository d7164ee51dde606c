package io.topolens.lab.kube;

import io.topolens.lab.experiment.ExperimentSpec;
import io.topolens.lab.experiment.Variant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The shell line a variant's pods run: the probe from its ConfigMap, or the spec's training
 * command. Both run under the rendezvous variables the operator sets (Trainer's PET_*, the
 * training-operator's MASTER_ADDR and PET_*); no MPI and no sshd.
 */
final class VariantCommand {
  /** The interpreter {@code {python}} stands for in the pods. */
  static final String PYTHON = "python3";

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=:,+@%-]+");

  private VariantCommand() {}

  /**
   * The probe: the training-operator sets RANK and WORLD_SIZE per pod, not per GPU, so they are
   * unset and the probe starts one rank per GPU of the pod from PET_NNODES, PET_NODE_RANK and
   * PET_NPROC_PER_NODE (Trainer sets only those).
   */
  static String probe(ExperimentSpec spec) {
    List<String> words =
        new ArrayList<>(
            List.of(
                "exec",
                "env",
                "-u",
                "RANK",
                "-u",
                "WORLD_SIZE",
                "-u",
                "LOCAL_RANK",
                PYTHON,
                ProbeConfigMap.SCRIPT));
    words.addAll(spec.probe().toArgs());
    return line(words);
  }

  /** The training command with {@code {python}}, {@code {offload}} and {@code {variant}} filled. */
  static String train(ExperimentSpec spec, Variant v) {
    List<String> words = new ArrayList<>();
    for (String w : spec.train()) {
      words.add(
          w.replace("{python}", PYTHON)
              .replace("{offload}", v.offload() == null ? "none" : v.offload())
              .replace("{variant}", v.name()));
    }
    return line(words);
  }

  static String of(ExperimentSpec spec, Variant v, Phase phase) {
    return phase == Phase.PROBE ? probe(spec) : train(spec, v);
  }

  /** Words joined for bash, each quoted only when it needs to be. */
  static String line(List<String> words) {
    List<String> out = new ArrayList<>();
    for (String w : words) {
      out.add(PLAIN.matcher(w).matches() ? w : "'" + w.replace("'", "'\\''") + "'");
    }
    return String.join(" ", out);
  }
}
