package io.topolens.kube.lint;

import io.topolens.kube.manifest.ManifestReader;
import io.topolens.kube.manifest.WorkloadReader;
import io.topolens.kube.manifest.YamlDocument;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The lint workflow: read every file (a file that cannot be read becomes a problem line, the rest
 * are still read), read the workloads of all files together so TrainJobs find their runtimes, and
 * judge them.
 */
public final class ManifestLint {
  private final LintContext ctx;
  private final Map<String, String> vars;

  /**
   * @param vars {@code NAME -> value} substituted for {@code ${NAME}} as envsubst would
   */
  public ManifestLint(LintContext ctx, Map<String, String> vars) {
    this.ctx = ctx;
    this.vars = Map.copyOf(vars);
  }

  public LintResult lint(List<String> files) {
    List<YamlDocument> docs = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    ManifestReader reader = new ManifestReader(vars);
    for (String f : files) {
      try {
        docs.addAll(reader.read(f));
      } catch (InputProblem e) {
        problems.add(e.getMessage());
      }
    }
    WorkloadReader.Result r = new WorkloadReader(ctx.trainer()).read(docs);
    r.problems().forEach(p -> problems.add(p.getMessage()));
    return new LintResult(
        List.copyOf(files),
        r.workloads(),
        r.skipped(),
        Linter.standard().lint(r.workloads(), ctx),
        problems);
  }
}
