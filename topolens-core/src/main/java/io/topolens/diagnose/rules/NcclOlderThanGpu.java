package io.topolens.diagnose.rules;

import io.topolens.catalog.KnownNcclBug;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.GpuMention;
import io.topolens.model.Job;
import io.topolens.model.PrintedVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code nccl-older-than-gpu}: the log names an NCCL release and a GPU whose generation that
 * release predates (the GPU-generation entries of {@code known-nccl-bugs.json}: the first release
 * that supports compute capability 8.x, 9.0, 10.0 and 12.0, each with its source). An error where
 * the log also shows a failure, else a warning; a release named only by a package list or without
 * its patch is a warning. Where the log shows a known bug that the floor's release fixed ({@code
 * known-nccl-bug}: NCCL 2.25 on sm_120), that finding names the upgrade, not this one.
 */
public final class NcclOlderThanGpu implements Rule {

  private final List<KnownNcclBug> generations;

  /** The catalog's bugs: one the log shows that the floor's release fixed names the upgrade. */
  private final KnownNcclBugRule bugs;

  public NcclOlderThanGpu() {
    this(KnownNcclBug.bundled());
  }

  NcclOlderThanGpu(List<KnownNcclBug> entries) {
    this.generations = entries.stream().filter(KnownNcclBug::gpuSupport).toList();
    this.bugs = new KnownNcclBugRule(entries);
  }

  @Override
  public String id() {
    return "nccl-older-than-gpu";
  }

  @Override
  public List<Finding> check(Job job) {
    List<Finding> out = new ArrayList<>();
    for (KnownNcclBug generation : generations) {
      GpuMention gpu = gpu(job, generation);
      if (gpu == null) {
        continue;
      }
      KnownNcclBugRule.Release release = KnownNcclBugRule.release(job, generation);
      if (release == null || bugs.showsBugFixedIn(job, generation.fixedIn())) {
        // a known bug of this GPU's that the same release fixed is named by known-nccl-bug, with
        // its symptom (NCCL 2.25's shared memory on sm_120)
        continue;
      }
      PrintedVersion v = release.version();
      List<Evidence> evidence = new ArrayList<>(List.of(v.evidence()));
      if (!evidence.contains(gpu.evidence())) {
        evidence.add(gpu.evidence());
      }
      boolean failed = job.showsFailure();
      Severity severity = release.certain() && failed ? Severity.ERROR : Severity.WARN;
      out.add(
          new Finding(
              id(),
              severity,
              generation.title(),
              "This log shows NCCL "
                  + v.version()
                  + (v.of() == PrintedVersion.Of.NCCL_NAMED
                      ? " (a package or library a line names, not NCCL's own version line)"
                      : "")
                  + " and a GPU of that generation ("
                  + gpu.words()
                  + "). "
                  + generation.explanation()
                  + (failed
                      ? " The log shows a failure: with an NCCL this old on this GPU, the release is"
                          + " the first thing to change."
                      : " Nothing failed in these lines, but the combination is unsupported.")
                  + " Source: "
                  + generation.source()
                  + ".",
              evidence,
              generation.fix()));
    }
    return out;
  }

  /** The first GPU a line names that is of this generation, or null. */
  private static GpuMention gpu(Job job, KnownNcclBug generation) {
    List<Pattern> patterns =
        generation.gpus().stream().map(g -> Pattern.compile(g, Pattern.CASE_INSENSITIVE)).toList();
    for (GpuMention m : job.gpuMentions()) {
      if ((m.model() != null && patterns.stream().anyMatch(p -> p.matcher(m.model()).find()))
          || (m.capability() != null
              && generation.capability() != null
              && m.capability().major() == generation.capability())) {
        return m;
      }
    }
    return null;
  }
}
