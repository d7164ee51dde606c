package io.topolens.diagnose.rules;

import io.topolens.catalog.KnownNcclBug;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.CollectiveTimeout;
import io.topolens.model.EnvSetting;
import io.topolens.model.Evidence;
import io.topolens.model.GpuMention;
import io.topolens.model.Interface;
import io.topolens.model.Job;
import io.topolens.model.NcclFailure;
import io.topolens.model.NcclWarning;
import io.topolens.model.PrintedVersion;
import io.topolens.model.Rank;
import io.topolens.model.StackFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code known-nccl-bug}: the log shows an NCCL release with a known bug (the bundled catalog,
 * {@code known-nccl-bugs.json}, each entry with its source) together with that bug's symptom and,
 * where the bug needs one, its platform: names the bug and the release that fixed it. A release
 * named only by a package list or without its patch, or none at all beside a symptom that is the
 * bug's alone, is a warning that names the releases that carry it and how to check yours; a release
 * outside the range is no finding.
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
    return shown(job).stream().map(s -> finding(s.bug, s.release, s.platform, s.evidence)).toList();
  }

  /**
   * Whether the log shows a known bug that the given release fixed: that finding already names the
   * upgrade to it (nccl-older-than-gpu asks, so the two do not name it twice).
   */
  boolean showsBugFixedIn(Job job, String release) {
    return shown(job).stream().anyMatch(s -> s.bug.fixedIn().equals(release));
  }

  /** A bug the log shows, with what its finding rests on. */
  private record Shown(
      KnownNcclBug bug, Release release, Evidence platform, List<Evidence> evidence) {}

  private List<Shown> shown(Job job) {
    List<Shown> out = new ArrayList<>();
    // a failure line explained by one entry (the more specific first in the catalog) is not
    // explained again by a later one
    List<Evidence> claimed = new ArrayList<>();
    for (KnownNcclBug bug : bugs) {
      if (bug.gpuSupport()) {
        // a GPU generation older releases do not support: nccl-older-than-gpu's
        continue;
      }
      List<Evidence> symptoms = symptoms(job, bug);
      if (symptoms == null || claimed.containsAll(symptoms)) {
        continue;
      }
      Evidence platform = bug.platform() == null ? null : platform(job, bug.platform());
      if (bug.platform() != null && platform == null) {
        continue;
      }
      if (bug.notPlatform() != null && platform(job, bug.notPlatform()) != null) {
        continue;
      }
      Release release = release(job, bug);
      if (release == null) {
        continue;
      }
      claimed.addAll(symptoms);
      List<Evidence> evidence = new ArrayList<>();
      if (release.version != null) {
        evidence.add(release.version.evidence());
      }
      symptoms.stream().filter(e -> !evidence.contains(e)).forEach(evidence::add);
      if (platform != null && !evidence.contains(platform)) {
        evidence.add(platform);
      }
      out.add(new Shown(bug, release, platform, evidence));
    }
    return out;
  }

  /**
   * The release a bug's finding rests on: a printed one in its range ({@code certain}), a partial
   * one ({@code 2.19}) or one a package list names whose minor overlaps it, or none where the log
   * names no release and the symptom alone is the bug's; null when a release outside the range
   * shows.
   */
  record Release(PrintedVersion version, boolean certain) {}

  static Release release(Job job, KnownNcclBug bug) {
    List<PrintedVersion> printed = job.printed(PrintedVersion.Of.NCCL);
    if (printed.isEmpty()) {
      // no line of NCCL's own: the release a package list, a path or a framework names
      printed = job.printed(PrintedVersion.Of.NCCL_NAMED);
    }
    if (printed.isEmpty()) {
      return bug.versionless() ? new Release(null, false) : null;
    }
    for (PrintedVersion v : printed) {
      if (PrintedVersion.within(v.version(), bug.from(), bug.fixedIn())) {
        return new Release(
            v, v.of() == PrintedVersion.Of.NCCL && !PrintedVersion.partial(v.version()));
      }
    }
    return null;
  }

  private Finding finding(
      KnownNcclBug bug, Release release, Evidence platform, List<Evidence> evidence) {
    String range = releases(bug);
    String where = platform != null ? ", " + platformWords(bug.platform()) : "";
    String check =
        " Check the release every rank loads: NCCL_DEBUG=VERSION prints `NCCL version X`; python -c"
            + " 'import torch; print(torch.cuda.nccl.version())'; pip list | grep -i nccl.";
    if (release.version == null) {
      return possibly(
          bug,
          evidence,
          "This log shows the exact symptom of a known NCCL bug of "
              + range
              + where
              + ", but prints no NCCL release, so it cannot say the bug is yours. "
              + bug.explanation()
              + check);
    }
    String version = release.version.version();
    if (!release.certain) {
      boolean named = release.version.of() == PrintedVersion.Of.NCCL_NAMED;
      return possibly(
          bug,
          evidence,
          "This log "
              + (named
                  ? "names NCCL "
                      + version
                      + " (a package or library the line lists, not"
                      + " NCCL's own version line)"
                  : "shows NCCL " + version + " without its patch release")
              + where
              + " and the symptom of a known NCCL bug of "
              + range
              + ". "
              + bug.explanation()
              + check);
    }
    return new Finding(
        id(),
        "warn".equals(bug.severity()) ? Severity.WARN : Severity.ERROR,
        bug.title(),
        "This log shows NCCL "
            + version
            + where
            + " and the bug's symptom. "
            + bug.explanation()
            + " Source: "
            + bug.source()
            + ".",
        evidence,
        bug.fix());
  }

  /** The warning where the log does not show for certain that its NCCL is in the bug's range. */
  private Finding possibly(KnownNcclBug bug, List<Evidence> evidence, String why) {
    return new Finding(
        id(),
        Severity.WARN,
        "Possibly a known NCCL bug of " + releases(bug) + ": " + bug.title(),
        why + " Source: " + bug.source() + ".",
        evidence,
        bug.fix());
  }

  /** {@code NCCL 2.19.3 up to 2.27.3 (fixed there)}. */
  private static String releases(KnownNcclBug bug) {
    return "NCCL " + bug.from() + " up to " + bug.fixedIn() + " (fixed there)";
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
        for (CollectiveTimeout t : job.timeouts()) {
          if (says(t.evidence().text(), t.evidence().text(), bug, word)) {
            hit = t.evidence();
            break;
          }
        }
      }
      if (hit == null) {
        // a frame of NCCL's code in a stack dump of the hung process
        for (StackFrame f : job.stackFrames()) {
          if (says(f.function(), f.evidence().text(), bug, word)) {
            hit = f.evidence();
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

  /**
   * Whether a line says the word, neither it nor its source file says another cause, and it names
   * the entry's place in NCCL's source where the entry has one ({@code enqueue.cc:1500}, not {@code
   * enqueue.cc:15001}).
   */
  private static boolean says(String text, String line, KnownNcclBug bug, String word) {
    String l = line.toLowerCase(Locale.ROOT);
    return text.toLowerCase(Locale.ROOT).contains(word)
        && bug.unless().stream().noneMatch(l::contains)
        && (bug.at() == null || namesPlace(l, bug.at()));
  }

  /** Whether a line names the source file and line, not a longer line number that starts so. */
  private static boolean namesPlace(String line, String at) {
    for (int i = line.indexOf(at); i >= 0; i = line.indexOf(at, i + 1)) {
      int end = i + at.length();
      boolean fileStarts = i == 0 || !Character.isLetterOrDigit(line.charAt(i - 1));
      if (fileStarts && (end == line.length() || !Character.isDigit(line.charAt(end)))) {
        return true;
      }
    }
    return false;
  }

  /** A consumer Blackwell GPU (sm_120): {@code GeForce RTX 5090}, {@code RTX 5070 Ti}. */
  private static final Pattern RTX_50 = Pattern.compile("RTX ?50\\d\\d");

  /** A line that shows the platform, or null. */
  private static Evidence platform(Job job, String platform) {
    if (platform.equals("collnet")) {
      // CollNet (SHARP) is off unless asked for: NCCL_COLLNET_ENABLE=1
      for (EnvSetting e : job.env()) {
        if (e.name().equals("NCCL_COLLNET_ENABLE") && e.value().equals("1")) {
          return e.evidence();
        }
      }
      return null;
    }
    if (platform.equals("rtx50")) {
      for (GpuMention g : job.gpuMentions()) {
        if (g.model() != null && RTX_50.matcher(g.model()).find()) {
          return g.evidence();
        }
      }
      return null;
    }
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
    if (platform.equals("collnet")) {
      return "with CollNet (SHARP) enabled (NCCL_COLLNET_ENABLE=1)";
    }
    if (platform.equals("rtx50")) {
      return "on a GeForce RTX 50 GPU (consumer Blackwell, sm_120; the log names it)";
    }
    return platform.equals("wsl")
        ? "on WSL2 (the host carries Windows' own computer name, or NCCL loaded WSL's driver"
            + " libraries)"
        : platform;
  }
}
