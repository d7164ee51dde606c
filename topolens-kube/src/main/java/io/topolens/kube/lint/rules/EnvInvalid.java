package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.EnvVar;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Workload;
import io.topolens.kube.settings.KubeSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An NCCL or EFA variable set to a value it does not accept, such as {@code NCCL_ALGO=true}
 * (error).
 */
public final class EnvInvalid implements LintRule {
  @Override
  public String id() {
    return "env-invalid";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (PodGroup g : w.groups()) {
      for (EnvVar v : g.rankEnv()) {
        Optional<KubeSettings.EnvValues> values = ctx.settings().values(v.name());
        if (v.value() == null
            || values.isEmpty()
            || values.get().accepts(v.value())
            || v.value().contains("$")) {
          continue;
        }
        out.add(
            new Finding(
                id(),
                Severity.ERROR,
                Facts.who(w, g)
                    + ": "
                    + v.name()
                    + "="
                    + v.value()
                    + " is not a value "
                    + v.name()
                    + " accepts",
                v.name()
                    + " takes "
                    + values.get().accepted()
                    + " (NCCL user guide, Environment Variables). NCCL warns and ignores a value it cannot parse, or fails to initialize, so the setting does not do what it was written for.",
                Facts.lines(v.evidence()),
                v.name().equals("NCCL_ALGO") && v.value().equalsIgnoreCase("true")
                    ? "Remove NCCL_ALGO (NCCL chooses per message size), or name the algorithm: NCCL_ALGO=Tree."
                    : "Set one of: " + values.get().accepted() + "; or remove it."));
      }
    }
    return out;
  }
}
