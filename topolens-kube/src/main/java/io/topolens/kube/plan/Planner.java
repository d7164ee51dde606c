package io.topolens.kube.plan;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.Measurements;
import io.topolens.kube.model.TrainerRelease;
import io.topolens.kube.settings.KubeSettings;
import io.topolens.kube.yaml.YamlMap;
import io.topolens.nccl.InputProblem;
import java.util.List;
import java.util.Locale;

/**
 * Plans a job: sizes it from the hardware catalog and the Kubernetes settings, then writes the
 * manifests of the asked-for kind, every choice with its reason.
 */
public final class Planner {
  private final HardwareCatalog catalog;
  private final KubeSettings settings;
  private final Measurements measurements;

  public Planner(HardwareCatalog catalog, KubeSettings settings, Measurements measurements) {
    this.catalog = catalog;
    this.settings = settings;
    this.measurements = measurements;
  }

  public static Planner standard() {
    return new Planner(HardwareCatalog.builtIn(), KubeSettings.bundled(), Measurements.bundled());
  }

  /** The plan for {@code spec}; a request that cannot work is an {@link InputProblem}. */
  public Plan plan(PlanSpec spec) throws InputProblem {
    Sizing s = new Sizing(spec, catalog, settings, measurements);
    if (s.kind == PlanSpec.JobKind.TRAINJOB) {
      TrainerRelease t = spec.trainer();
      if (t.major() != 2 || t.minor() < 2) {
        throw new InputProblem(
            "--trainer-version "
                + t
                + ": plan writes TrainJobs for Kubeflow Trainer v2.2 and later (pod settings in"
                + " runtimePatches); Trainer v2.1 takes podTemplateOverrides, which plan does not write:"
                + " upgrade Trainer, or use --kind pytorchjob");
      }
    }
    List<YamlMap> docs =
        switch (s.kind) {
          case TRAINJOB -> new TrainJobWriter(s).write();
          case PYTORCHJOB -> new PyTorchJobWriter(s).write();
          case MPIJOB -> new MpiJobWriter(s).write();
        };
    String kind =
        switch (s.kind) {
          case TRAINJOB -> "TrainJob";
          case PYTORCHJOB -> "PyTorchJob";
          case MPIJOB -> "MPIJob";
        };
    String summary =
        String.format(
            Locale.ROOT,
            "%s %s, %s on %d x %s (%d x %s%s per node): %d pod(s) of %d GPU(s)%s",
            kind,
            s.name,
            spec.workload().label(),
            spec.nodes(),
            s.inst.type(),
            s.inst.gpus(),
            s.gpu.name(),
            s.inst.efa() > 0 ? ", " + s.inst.efa() + " EFA" : "",
            s.pods,
            s.gpusPerPod,
            s.efa ? ", " + s.efaPerPod + " EFA each" : ", no EFA (TCP between nodes)");
    return new Plan(summary, s.name, kind, docs, s.choices, s.warnings);
  }
}
