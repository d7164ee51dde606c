package io.topolens.kube.lint;

import io.topolens.diagnose.Finding;
import io.topolens.kube.lint.rules.EfaCount;
import io.topolens.kube.lint.rules.EfaNotRequested;
import io.topolens.kube.lint.rules.EnvInvalid;
import io.topolens.kube.lint.rules.EnvObsolete;
import io.topolens.kube.lint.rules.GpuNotRequested;
import io.topolens.kube.lint.rules.HostIpc;
import io.topolens.kube.lint.rules.HostNetwork;
import io.topolens.kube.lint.rules.HostPid;
import io.topolens.kube.lint.rules.HugepagesMissing;
import io.topolens.kube.lint.rules.InstanceNotPinned;
import io.topolens.kube.lint.rules.LauncherNoWait;
import io.topolens.kube.lint.rules.OffloadMemory;
import io.topolens.kube.lint.rules.P2pLevelNvl;
import io.topolens.kube.lint.rules.PodPerGpu;
import io.topolens.kube.lint.rules.Privileged;
import io.topolens.kube.lint.rules.ProcsPerNode;
import io.topolens.kube.lint.rules.ResourceInvalid;
import io.topolens.kube.lint.rules.RuntimeResourcesReplaced;
import io.topolens.kube.lint.rules.ShmMissing;
import io.topolens.kube.lint.rules.ShmTooSmall;
import io.topolens.kube.lint.rules.SocketIfname;
import io.topolens.kube.lint.rules.TrainerRelease;
import io.topolens.kube.lint.rules.UnknownField;
import io.topolens.kube.lint.rules.UnresolvedPlaceholder;
import io.topolens.kube.model.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs every lint rule over every workload; findings come back most severe first, then by file and
 * line.
 */
public final class Linter {
  private final List<LintRule> rules;

  public Linter(List<LintRule> rules) {
    this.rules = List.copyOf(rules);
  }

  /** All rules, in the order docs/lint.md lists them. */
  public static Linter standard() {
    return new Linter(
        List.of(
            new PodPerGpu(),
            new EfaNotRequested(),
            new EfaCount(),
            new ProcsPerNode(),
            new GpuNotRequested(),
            new ShmMissing(),
            new ShmTooSmall(),
            new OffloadMemory(),
            new HugepagesMissing(),
            new ResourceInvalid(),
            new P2pLevelNvl(),
            new EnvInvalid(),
            new EnvObsolete(),
            new SocketIfname(),
            new Privileged(),
            new HostNetwork(),
            new HostIpc(),
            new HostPid(),
            new RuntimeResourcesReplaced(),
            new TrainerRelease(),
            new LauncherNoWait(),
            new UnknownField(),
            new InstanceNotPinned(),
            new UnresolvedPlaceholder()));
  }

  public List<LintRule> rules() {
    return rules;
  }

  /**
   * The findings of every rule on every workload; a finding with the same id and evidence as an
   * earlier one is left out.
   */
  public List<Finding> lint(List<Workload> workloads, LintContext ctx) {
    // a runtime's finding repeats on every TrainJob that uses it: keep the first (the runtime's)
    Map<String, Finding> all = new LinkedHashMap<>();
    for (Workload w : workloads) {
      for (LintRule r : rules) {
        for (Finding f : r.check(w, ctx)) {
          all.putIfAbsent(
              f.id() + " " + f.evidence() + (f.evidence().isEmpty() ? f.title() : ""), f);
        }
      }
    }
    List<Finding> out = new ArrayList<>(all.values());
    out.sort(
        Comparator.comparing(Finding::severity)
            .reversed()
            .thenComparing(f -> f.evidence().isEmpty() ? "" : f.evidence().get(0).file())
            .thenComparingLong(f -> f.evidence().isEmpty() ? 0 : f.evidence().get(0).line()));
    return out;
  }
}
