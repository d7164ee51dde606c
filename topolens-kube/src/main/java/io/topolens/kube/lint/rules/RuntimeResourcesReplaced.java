package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Container;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Quantity;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.TrainerSpec;
import io.topolens.kube.model.Workload;
import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A TrainJob whose {@code resourcesPerNode} leaves out resources its runtime's node container sets
 * (EFA, huge pages): Trainer before v2.3.0 replaces the runtime's resources with it, so they are
 * lost (error when the cluster is known to be older; warn when the release is not stated).
 */
public final class RuntimeResourcesReplaced implements LintRule {
  @Override
  public String id() {
    return "runtime-resources-replaced";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    TrainerSpec t = w.trainer();
    if (w.kind() != io.topolens.kube.model.WorkloadKind.TRAIN_JOB
        || t.runtime() == null
        || t.resourcesPerNode().isEmpty()) {
      return List.of();
    }
    PodGroup node = t.runtime().group("node").orElse(null);
    Container c = node == null ? null : node.pod().container("node").orElse(null);
    if (c == null) {
      return List.of();
    }
    boolean old = t.releaseFields().stream().anyMatch(r -> r.value().contains("only"));
    if (!old && ctx.trainer().mergesResources() && ctx.trainerStated()) {
      return List.of();
    }
    Map<String, Located<Quantity>> lost = new LinkedHashMap<>();
    Resources rt = c.resources();
    for (var e : rt.limits().entrySet()) {
      if (!t.resourcesPerNode().names(e.getKey())) {
        lost.put(e.getKey(), e.getValue());
      }
    }
    for (var e : rt.requests().entrySet()) {
      if (!t.resourcesPerNode().names(e.getKey())) {
        lost.putIfAbsent(e.getKey(), e.getValue());
      }
    }
    if (lost.isEmpty()) {
      return List.of();
    }
    boolean sure = old || !ctx.trainer().mergesResources();
    List<Evidence> ev = new ArrayList<>();
    ev.add(t.resourcesPerNode().evidence());
    lost.values().forEach(l -> ev.add(l.evidence()));
    return List.of(
        new Finding(
            id(),
            sure ? Severity.ERROR : Severity.WARN,
            w.label()
                + ": resourcesPerNode would replace "
                + String.join(", ", lost.keySet())
                + " set by "
                + t.runtimeKind()
                + " "
                + t.runtime().name(),
            (sure
                    ? "This cluster runs Trainer "
                        + (old
                            ? "v2.1 or older (the TrainJob uses fields of that release)"
                            : ctx.trainer().toString())
                        + ", which"
                    : "Trainer before v2.3.0")
                + " replaces the runtime's node container resources with trainer.resourcesPerNode instead of merging them (merging came with kubeflow/trainer#3602 in v2.3.0): the pods lose "
                + String.join(", ", lost.keySet())
                + (lost.containsKey(Resources.EFA)
                    ? ", and with no EFA device NCCL falls back to TCP sockets"
                    : "")
                + " (NVIDIA/aicr#2275)."
                + (sure
                    ? ""
                    : " On v2.3.0 and later they are merged; pass --trainer-version to say which release the cluster runs."),
            Facts.lines(ev.toArray(Evidence[]::new)),
            "Repeat "
                + String.join(", ", lost.keySet())
                + " in trainer.resourcesPerNode (limits and requests), or upgrade Trainer to v2.3.0."));
  }
}
