package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintContext.Placement;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Container;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.OffloadMode;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Quantity;
import io.topolens.kube.model.Resources;
import io.topolens.kube.model.Workload;
import io.topolens.kube.settings.KubeSettings;
import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * ZeRO / FSDP CPU offload with less host memory than DeepSpeed's own estimate: a memory limit (or
 * the node's share) below the estimate with zero.Init (error: OOM-killed), or below the larger
 * estimate without zero.Init, when every process loads the whole model first (warn). Model size and
 * offload come from {@code --params} / {@code --offload}, else from the manifest's text.
 */
public final class OffloadMemory implements LintRule {
  @Override
  public String id() {
    return "offload-memory";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    OffloadMode mode =
        ctx.offload() != null
            ? ctx.offload()
            : w.hints().offload() == null ? null : w.hints().offload().value();
    Double params =
        ctx.params() != null
            ? ctx.params()
            : w.hints().params() == null ? null : w.hints().params().value();
    if (mode == null || mode == OffloadMode.NONE || params == null) {
      return out;
    }
    Evidence modeAt = ctx.offload() == null ? w.hints().offload().evidence() : null;
    Evidence paramsAt = ctx.params() == null ? w.hints().params().evidence() : null;
    KubeSettings.Offload o = ctx.settings().policy().offload();
    int nodes = Math.max(1, w.rankPods().orElse(1));
    boolean withParams = mode == OffloadMode.PARAMS;
    for (PodGroup g : w.rankGroups()) {
      long gpus = g.pod().gpus().orElse(0L);
      Container main = g.pod().main().orElse(null);
      if (gpus <= 0 || main == null) {
        continue;
      }
      double init = o.bytesPerNode(params, (int) gpus, nodes, withParams, true);
      double load = o.bytesPerNode(params, (int) gpus, nodes, withParams, false);
      String what =
          String.format(
              Locale.ROOT,
              "DeepSpeed's estimate for ZeRO-3 offloading %s of a %s-parameter model over %d pods of %d GPUs is %.1f GB of host memory per pod with zero.Init (params x %.0f / %d x %.1f), %.1f GB when every process first loads the whole model (params x max(4 x %d, %.0f / %d) x %.1f, as a plain from_pretrained before DeepSpeed starts does).",
              withParams ? "parameters and optimizer states" : "optimizer states",
              size(params),
              nodes,
              gpus,
              init / 1e9,
              withParams ? o.bytesPerParamParamsAndOptimizer() : o.bytesPerParamOptimizerOnly(),
              nodes,
              o.bufferFactor(),
              load / 1e9,
              gpus,
              withParams ? o.bytesPerParamParamsAndOptimizer() : o.bytesPerParamOptimizerOnly(),
              nodes,
              o.bufferFactor());
      Located<Quantity> limit = main.resources().limits().get(Resources.MEMORY);
      String flags =
          "--offload " + mode.name().toLowerCase(Locale.ROOT) + " --params " + size(params);
      if (limit != null && limit.value() != null) {
        double have = limit.value().value().doubleValue();
        if (have < load) {
          boolean hard = have < init;
          out.add(
              new Finding(
                  id(),
                  hard ? Severity.ERROR : Severity.WARN,
                  Facts.who(w, g)
                      + String.format(
                          Locale.ROOT,
                          ": memory limit %s is below the %.1f GB CPU offload needs%s",
                          limit.value(),
                          (hard ? init : load) / 1e9,
                          hard ? "" : " without zero.Init"),
                  what
                      + (hard
                          ? " The container is OOM-killed (exit 137) when the optimizer states move to host memory."
                          : " With zero.Init it fits; if the script loads the model before DeepSpeed partitions it, the container is OOM-killed (exit 137) while loading.")
                      + " A memory-backed /dev/shm counts against the same limit.",
                  Facts.lines(limit.evidence(), modeAt, paramsAt),
                  "Raise the memory limit and request to at least "
                      + Quantity.ofBytes(giB(hard ? init : load))
                      + " plus /dev/shm, or remove the limit"
                      + (hard ? "" : ", or build the model inside deepspeed.zero.Init")
                      + "; `topolens plan "
                      + flags
                      + "` sizes the pods."));
        }
        continue;
      }
      for (Placement p : ctx.placements(g)) {
        double node = p.spec().memoryGiB() * (1L << 30) * gpus / p.spec().gpus();
        if (node < init) {
          out.add(
              new Finding(
                  id(),
                  Severity.ERROR,
                  Facts.who(w, g)
                      + String.format(
                          Locale.ROOT,
                          ": CPU offload needs %.1f GB per pod; %s has %s for a pod of %d GPUs",
                          init / 1e9,
                          p.type(),
                          Quantity.gibText(node),
                          gpus),
                  what + " The node cannot hold it: the pod is OOM-killed.",
                  Facts.lines(p.evidence(), modeAt, paramsAt),
                  "Use more nodes (the estimate shrinks with them), an instance type with more memory, or offload only the optimizer."));
        }
      }
    }
    return out;
  }

  private static long giB(double bytes) {
    return (long) Math.ceil(bytes / (1L << 30)) << 30;
  }

  static String size(double params) {
    double b = params / 1e9;
    return b == Math.rint(b) ? (long) b + "B" : String.format(Locale.ROOT, "%.1fB", b);
  }
}
