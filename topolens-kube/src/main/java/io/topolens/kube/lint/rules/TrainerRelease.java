package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * TrainJob or runtime fields of another Trainer release than the cluster's ({@code
 * --trainer-version}, default v2.3): {@code podTemplateOverrides} (v2.1), {@code podSpecOverrides}
 * (v2.0), a string {@code numProcPerNode} (before v2.2), {@code runtimePatches} (v2.2+) (error: the
 * API server rejects them or drops what they carry).
 */
public final class TrainerRelease implements LintRule {
  @Override
  public String id() {
    return "trainer-release";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    if (w.trainer() == null) {
      return out;
    }
    var v = ctx.trainer();
    for (Located<String> f : w.trainer().releaseFields()) {
      String field = f.value();
      boolean fits;
      String release;
      if (field.startsWith("podTemplateOverrides")) {
        fits = v.major() == 2 && v.minor() == 1;
        release = "v2.1";
      } else if (field.contains("(v2.0 only)")) {
        fits = v.major() == 2 && v.minor() == 0;
        release = "v2.0";
      } else if (field.startsWith("runtimePatches")) {
        fits = v.compareTo(new io.topolens.kube.model.TrainerRelease(2, 2)) >= 0;
        release = "v2.2 and later";
      } else if (field.startsWith("numProcPerNode")
          || field.startsWith("mlPolicy.torch.numProcPerNode")) {
        fits = v.compareTo(new io.topolens.kube.model.TrainerRelease(2, 2)) < 0;
        release = "v2.0 and v2.1";
      } else {
        continue;
      }
      if (fits) {
        continue;
      }
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              w.label()
                  + ": "
                  + field.replaceAll(" \\(.*\\)$", "")
                  + (field.startsWith("numProcPerNode") ? " (a string)" : "")
                  + " is Trainer "
                  + release
                  + " syntax; the cluster runs "
                  + v
                  + (ctx.trainerStated() ? "" : " (the default; --trainer-version says otherwise)"),
              "Trainer's API changed between releases (podSpecOverrides in v2.0, podTemplateOverrides in v2.1, runtimePatches and an integer numProcPerNode in v2.2, merged resources in v2.3; trainjob_types.go of each tag). "
                  + "A "
                  + v
                  + " API server rejects the unknown field or value (kubectl's strict field validation), or drops it, and with it what it carries: the /dev/shm volume, the node selector, the EFA settings.",
              Facts.lines(f.evidence()),
              field.startsWith("podTemplateOverrides") || field.contains("(v2.0 only)")
                  ? "On v2.2 and later, move the pod settings to spec.runtimePatches[].trainingRuntimeSpec.template.spec.replicatedJobs[name: node].template.spec.template.spec (`topolens plan --kind trainjob` writes it)."
                  : field.startsWith("runtimePatches")
                      ? "On "
                          + v
                          + ", use "
                          + (v.minor() == 1 ? "podTemplateOverrides" : "podSpecOverrides")
                          + ", or upgrade Trainer."
                      : "Write numProcPerNode as the number of GPUs per pod (an integer)."));
    }
    return out;
  }
}
