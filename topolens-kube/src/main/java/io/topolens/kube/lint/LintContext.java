package io.topolens.kube.lint;

import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.InstanceSpec;
import io.topolens.catalog.Measurements;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.OffloadMode;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.TrainerRelease;
import io.topolens.kube.settings.KubeSettings;
import io.topolens.model.Evidence;
import java.util.ArrayList;
import java.util.List;

/**
 * What rules may consult besides the workload: the hardware catalog, the Kubernetes settings, the
 * measured numbers, and what the user said on the command line.
 *
 * @param trainer the Trainer release the cluster runs
 * @param trainerStated whether the user stated it ({@code --trainer-version}), or it is the default
 * @param instance an instance type for pods that do not pin one ({@code --instance}), or null
 * @param params model parameters ({@code --params}), or null to read them from the manifest
 * @param offload what is offloaded ({@code --offload}), or null to read it from the manifest
 */
public record LintContext(
    HardwareCatalog catalog,
    KubeSettings settings,
    Measurements measurements,
    TrainerRelease trainer,
    boolean trainerStated,
    String instance,
    Double params,
    OffloadMode offload) {

  /** The defaults: built-in catalog and settings, Trainer v2.3, nothing stated. */
  public static LintContext defaults() {
    return new LintContext(
        HardwareCatalog.builtIn(),
        KubeSettings.bundled(),
        Measurements.bundled(),
        TrainerRelease.V2_3,
        false,
        null,
        null,
        null);
  }

  /**
   * An instance type a group's pods land on, with the catalog's facts.
   *
   * @param evidence the node selector line, or null when it came from {@code --instance}
   */
  public record Placement(InstanceSpec spec, GpuSpec gpu, Evidence evidence) {
    public String type() {
      return spec.type();
    }
  }

  /** The catalog-known instance types a group's pods are pinned to (or {@code --instance}). */
  public List<Placement> placements(PodGroup g) {
    List<Placement> out = new ArrayList<>();
    for (Located<String> t : g.pod().instanceTypes()) {
      if (t.value() != null) {
        catalog
            .instance(t.value())
            .ifPresent(i -> out.add(new Placement(i, catalog.gpuOf(i), t.evidence())));
      }
    }
    if (g.pod().instanceTypes().isEmpty() && instance != null) {
      catalog.instance(instance).ifPresent(i -> out.add(new Placement(i, catalog.gpuOf(i), null)));
    }
    return out;
  }
}
