package io.topolens.diagnose.rules;

import io.topolens.catalog.KnownNcclBug;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Interface;
import io.topolens.model.Job;
import io.topolens.model.NcclFailure;
import io.topolens.model.NcclWarning;
import io.topolens.model.PrintedVersion;
import io.topolens.model.Rank;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code known-nccl-bug}: the log shows an NCCL release with a known bug (the bundled catalog,
 * {@code known-nccl-bugs.json}, each entry with its source) together with that bug's symptom and,
 * where the bug needs one, its platform: names the bug and the release that fixed it.
 */
public final class KnownNcclBugRule implements Rule {

  /**
   * Windows' own computer names ({@code DESKTOP-VMBL43V}, {@code LAPTOP-1CE5APL}): WSL2 gives Linux
   * the Windows host's name, so NCCL's lines carry it.
   */
  private static final Pattern WINDOWS_HOST = Pattern.compile("(DESKTOP|LAPTOP)-[A-Z0-9]{7}");

  private final List<KnownNcclBug> bugs;

  public KnownNcclBugRule() {
    this(KnownNcclBug.bundled());
  }

  KnownNcclBugRule(List<KnownNcclBug> bugs) {
    this.bugs = bugs;
  }

  @Override
  public String id() {
    return "known-nccl-bug";
  }

  @Override
  public List<Finding> check(Job job) {
    List<Finding> out = new ArrayList<>();
    for (KnownNcclBug bug : bugs) {
      PrintedVersion version =
          job.printed(PrintedVersion.Of.NCCL).stream()
              .filter(
                  v ->
                      PrintedVersion.compare(v.version(), bug.from()) >= 0
                          && PrintedVersion.compare(v.version(), bug.fixedIn()) < 0)
              .findFirst()
              .orElse(null);
      if (version == null) {
        continue;
      }
      List<Evidence> symptoms = symptoms(job, bug);
      if (symptoms == null) {
        continue;
      }
      Evidence platform = bug.platform() == null ? null : platform(job, bug.platform());
      if (bug.platform() != null && platform == null) {
        continue;
      }
      List<Evidence> evidence = new ArrayList<>();
      evidence.add(version.evidence());
      symptoms.stream().filter(e -> !evidence.contains(e)).forEach(evidence::add);
      if (platform != null && !evidence.contains(platform)) {
        evidence.add(platform);
      }
      out.add(
          new Finding(
              id(),
              Severity.ERROR,
              bug.title(),
              "This log shows NCCL "
                  + version.version()
                  + (platform != null ? ", " + platformWords(bug.platform()) : "")
                  + " and the bug's symptom. "
                  + bug.explanation()
                  + " Source: "
                  + bug.source()
                  + ".",
              evidence,
              bug.fix()));
    }
    return out;
  }

  /** One line for each of the bug's symptom words, or null when a word is missing. */
  private static List<Evidence> symptoms(Job job, KnownNcclBug bug) {
    List<Evidence> lines = new ArrayList<>();
    for (String word : bug.symptoms()) {
      Evidence hit = null;
      for (NcclFailure f : job.failures()) {
        if (says(f.result() + " " + f.detail(), f.evidence().text(), bug, word)) {
          hit = f.evidence();
          break;
        }
      }
      if (hit == null) {
        for (NcclWarning w : job.warnings()) {
          if (w.evidence() != null && says(w.message(), w.evidence().text(), bug, word)) {
            hit = w.evidence();
            break;
          }
        }
      }
      if (hit == null) {
        return null;
      }
      lines.add(hit);
    }
    return lines;
  }

  /** Whether a line says the word, and neither it nor its source file says another cause. */
  private static boolean says(String text, String line, KnownNcclBug bug, String word) {
    String l = line.toLowerCase(Locale.ROOT);
    return text.toLowerCase(Locale.ROOT).contains(word)
        && bug.unless().stream().noneMatch(l::contains);
  }

  /** A line that shows the platform, or null. */
  private static Evidence platform(Job job, String platform) {
    if (!platform.equals("wsl")) {
      return null;
    }
    for (Interface i : job.interfaces()) {
      if (windowsHost(i.process())) {
        return i.evidence();
      }
    }
    for (Rank r : job.ranks()) {
      if (windowsHost(r.id().host()) && r.versionEvidence() != null) {
        return r.versionEvidence();
      }
    }
    for (NcclWarning w : job.warnings()) {
      if (w.evidence() != null
          && (windowsHost(w.process()) || w.message().contains("/usr/lib/wsl/"))) {
        return w.evidence();
      }
    }
    return null;
  }

  private static boolean windowsHost(String process) {
    return WINDOWS_HOST.matcher(process).lookingAt();
  }

  private static String platformWords(String platform) {
    return platform.equals("wsl")
        ? "on WSL2 (the host carries Windows' own computer name, or NCCL loaded WSL's driver"
            + " libraries)"
        : platform;
  }
}
