package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A field that the kind's schema does not have at that place, such as pod fields written directly
 * under a runtime's JobSet template (seed 001's edited torch-distributed runtime) or a misspelt
 * {@code trainer.nprocPerNode} (error: rejected by strict field validation, or silently dropped).
 */
public final class UnknownField implements LintRule {
  private static final Set<String> POD_FIELDS =
      Set.of(
          "containers",
          "initContainers",
          "volumes",
          "hostIPC",
          "hostNetwork",
          "hostPID",
          "shareProcessNamespace",
          "securityContext",
          "nodeSelector",
          "affinity",
          "tolerations",
          "serviceAccountName",
          "restartPolicy",
          "schedulerName",
          "priorityClassName");

  @Override
  public String id() {
    return "unknown-field";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    List<Finding> out = new ArrayList<>();
    for (Located<String> f : w.unknownFields()) {
      String key = f.value().substring(f.value().lastIndexOf('.') + 1);
      String where =
          w.kind().isRuntime()
              ? "spec.template.spec.replicatedJobs[].template.spec.template.spec (the pod of each replicated job)"
              : w.kind().kind().equals("TrainJob")
                  ? "spec.runtimePatches[].trainingRuntimeSpec.template.spec.replicatedJobs[name: node].template.spec.template.spec"
                  : "the pod template of each replica";
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              w.label()
                  + ": "
                  + f.value()
                  + " is not a field of "
                  + w.kind().kind()
                  + " "
                  + w.kind().apiVersion(),
              "kubectl's strict field validation (the default since Kubernetes 1.27) rejects the manifest; with --validate=false or an older client the API server drops the field and it does nothing."
                  + (POD_FIELDS.contains(key)
                      ? " " + key + " is a pod field: it belongs in " + where + "."
                      : ""),
              Facts.lines(f.evidence()),
              POD_FIELDS.contains(key)
                  ? "Move " + key + " to " + where + "."
                  : "Remove or correct the field (check its spelling against the CRD)."));
    }
    return out;
  }
}
