package io.topolens.kube.lint.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintContext;
import io.topolens.kube.lint.LintRule;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.MpiSpec;
import io.topolens.kube.model.Workload;
import io.topolens.kube.model.WorkloadKind;
import java.util.List;

/**
 * An MPI launcher that does not wait for its workers: an MPIJob without {@code
 * launcherCreationPolicy: WaitForWorkersReady}, or a Trainer MPI runtime whose launcher job does
 * not depend on the node job being Ready (warn).
 */
public final class LauncherNoWait implements LintRule {
  private static final String WHY =
      "The launcher runs mpirun as soon as it starts; when a worker's sshd is not up yet, mpirun fails to start its daemons there ('ssh: connect to host ... Connection refused', 'ORTE was unable to reliably start one or more daemons') and the launcher restarts or the job fails (kubeflow/mpi-operator#386, #482). Large jobs, slow image pulls and Karpenter-provisioned nodes make it likely.";

  @Override
  public String id() {
    return "launcher-no-wait";
  }

  @Override
  public List<Finding> check(Workload w, LintContext ctx) {
    MpiSpec m = w.mpi();
    if (m == null) {
      return List.of();
    }
    if (w.kind() == WorkloadKind.MPI_JOB) {
      Located<String> p = m.launcherCreationPolicy();
      if (p != null && "WaitForWorkersReady".equals(p.value())) {
        return List.of();
      }
      return List.of(
          new Finding(
              id(),
              Severity.WARN,
              w.label() + ": the launcher does not wait for the workers",
              WHY + (p == null ? " launcherCreationPolicy defaults to AtStartup." : ""),
              Facts.lines(p != null ? p.evidence() : w.evidence()),
              "spec.launcherCreationPolicy: WaitForWorkersReady"));
    }
    if (w.kind() == WorkloadKind.MPI_JOB_V1) {
      return List.of(
          new Finding(
              id(),
              Severity.WARN,
              w.label() + ": kubeflow.org/v1 MPIJob cannot make the launcher wait for the workers",
              WHY
                  + " Only the MPI Operator's v2beta1 MPIJob has launcherCreationPolicy; the v1 MPIJob of training-operator also clashes with it over the mpijobs.kubeflow.org CRD (kubeflow/trainer#1930).",
              Facts.lines(w.evidence()),
              "Use apiVersion kubeflow.org/v2beta1 (MPI Operator) with spec.launcherCreationPolicy: WaitForWorkersReady."));
    }
    if (w.kind().isRuntime()
        && m.launcherWaitsForWorkers() != null
        && !m.launcherWaitsForWorkers().value()) {
      return List.of(
          new Finding(
              id(),
              Severity.WARN,
              w.label() + ": the launcher job does not wait for the node job",
              WHY,
              Facts.lines(m.launcherWaitsForWorkers().evidence()),
              "Give the launcher replicated job dependsOn: [{name: node, status: Ready}], as Trainer's deepspeed-distributed runtime does."));
    }
    return List.of();
  }
}
