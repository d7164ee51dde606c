package io.topolens.present;

import io.topolens.diagnose.Diagnosis;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.model.Communicator;
import io.topolens.model.Evidence;
import io.topolens.model.InputFile;
import io.topolens.model.Job;
import io.topolens.model.Rank;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The readable report: summary, a transport map per communicator, then findings with evidence. */
public final class TextReport {
  /**
   * Communicators beyond this many are summarised in one line (jobs make hundreds of
   * sub-communicators).
   */
  static final int MAX_COMMS = 8;

  private final boolean verbose;

  public TextReport(boolean verbose) {
    this.verbose = verbose;
  }

  public void write(Diagnosis d, PrintWriter out) {
    Job job = d.job();
    summary(job, out);
    StepsReport.text(d.steps(), verbose, out);
    if (!d.beside().isEmpty()) {
      out.println("  read beside the logs:");
      for (Diagnosis.Beside b : d.beside()) {
        out.printf("    %s (%s)%n", b.file(), b.kind());
      }
      out.println();
    }
    int shown = 0;
    for (Communicator c : job.communicators()) {
      if (shown++ == MAX_COMMS && !verbose) {
        out.printf(
            "%n(%d more communicators; --verbose lists them)%n",
            job.communicators().size() - MAX_COMMS);
        break;
      }
      communicator(job, c, out);
    }
    findings(d, out);
    unrecognized(job, out);
    out.flush();
  }

  private void summary(Job job, PrintWriter out) {
    long lines = job.inputs().stream().mapToLong(InputFile::lines).sum();
    long nccl = job.inputs().stream().mapToLong(InputFile::ncclLines).sum();
    out.printf(
        "topolens diagnose: %d input(s), %,d lines, %,d NCCL lines%n",
        job.inputs().size(), lines, nccl);
    for (InputFile f : job.inputs()) {
      if (f.problem() != null) {
        out.printf(
            f.lines() > 0
                ? "  cut short %s: %s (its lines before are read)%n"
                : "  skipped %s: %s%n",
            f.name(),
            f.problem());
      } else if (f.ncclLines() == 0) {
        out.printf("  %s: no NCCL lines (is NCCL_DEBUG=INFO set?)%n", f.name());
      }
    }
    out.println();
    Map<String, Long> perHost =
        job.ranks().stream()
            .collect(
                Collectors.groupingBy(
                    r -> job.node(r.id().host()), LinkedHashMap::new, Collectors.counting()));
    out.printf(
        "  ranks     %d GPU context(s) on %d node(s)%s%n",
        job.ranks().size(),
        perHost.size(),
        perHost.size() <= 8
            ? " ("
                + perHost.entrySet().stream()
                    .map(e -> e.getKey() + ": " + e.getValue())
                    .collect(Collectors.joining(", "))
                + ")"
            : "");
    long perNodeMax = perHost.values().stream().mapToLong(Long::longValue).max().orElse(0);
    long perNodeMin = perHost.values().stream().mapToLong(Long::longValue).min().orElse(0);
    out.printf(
        "  GPUs/node %s%n",
        perNodeMin == perNodeMax ? String.valueOf(perNodeMax) : perNodeMin + " to " + perNodeMax);
    List<String> versions = job.ncclVersions();
    out.printf(
        "  NCCL      %s%n",
        versions.isEmpty() ? "version not printed" : String.join(", ", versions));
    List<String> networks = job.selectedNetPlugins();
    out.printf(
        "  network   %s%n", networks.isEmpty() ? "not printed" : String.join(", ", networks));
    out.printf("  comms     %d communicator(s)%n", job.communicators().size());
  }

  private void communicator(Job job, Communicator c, PrintWriter out) {
    out.println();
    long hosts = c.members().values().stream().map(m -> job.node(m.id().host())).distinct().count();
    out.printf(
        "Communicator %s: %s ranks, %d seen, NCCL nNodes %s, %d node(s) by hostname%s%n",
        c.key(),
        c.nRanks() < 0 ? "?" : String.valueOf(c.nRanks()),
        c.members().size(),
        c.nNodes() < 0 ? "?" : String.valueOf(c.nNodes()),
        hosts,
        c.parentKey() != null ? ", split from " + c.parentKey() : "");
    if (c.nNodes() > 0 && hosts > 0 && c.members().size() == c.nRanks() && c.nNodes() != hosts) {
      out.printf(
          "  NCCL's node count (%d) and the hostnames (%d) disagree: %s%n",
          c.nNodes(),
          hosts,
          c.nNodes() > hosts
              ? "NCCL treats ranks of one host as separate nodes"
              : "ranks with different hostnames were counted as one node (NCCL_HOSTID?)");
    }
    if (!c.rings().isEmpty()) {
      List<Integer> ring0 = c.rings().values().iterator().next();
      out.printf(
          "  channels  %d; ring %s%n",
          c.rings().size(),
          ring0.size() <= 16
              ? ring0.stream().map(String::valueOf).collect(Collectors.joining(" "))
              : ring0.size() + " ranks");
    }
    TransportMap map = TransportMap.of(job, c);
    if (map.rows().isEmpty()) {
      out.println("  no connection lines for this communicator");
      return;
    }
    for (TransportMap.Row r : map.rows()) {
      out.printf(
          "  %-11s %-40s %5d pair(s) %5d channel-edges  %s%n",
          r.placement().label(), r.path(), r.pairs(), r.channels(), r.note());
    }
  }

  private void findings(Diagnosis d, PrintWriter out) {
    out.println();
    Map<Severity, Long> counts =
        d.findings().stream()
            .collect(Collectors.groupingBy(Finding::severity, Collectors.counting()));
    out.printf(
        "Findings: %d error, %d warn, %d info%n",
        counts.getOrDefault(Severity.ERROR, 0L),
        counts.getOrDefault(Severity.WARN, 0L),
        counts.getOrDefault(Severity.INFO, 0L));
    for (Finding f : d.findings()) {
      out.println();
      out.printf(
          "%-5s %s: %s%n",
          f.severity().label().toUpperCase(java.util.Locale.ROOT), f.id(), f.title());
      wrap(out, "  why  ", f.explanation());
      if (!f.evidence().isEmpty()) {
        out.println("  evidence");
        for (Evidence e : f.evidence()) {
          out.printf("    %s: %s%n", e.where(), clip(e.text()));
        }
      }
      wrap(out, "  fix  ", f.fix());
    }
  }

  private void unrecognized(Job job, PrintWriter out) {
    if (job.unrecognized().count() == 0 && job.malformed().count() == 0) {
      return;
    }
    out.println();
    out.printf(
        "Unrecognized NCCL lines: %d; malformed lines: %d%s%n",
        job.unrecognized().count(),
        job.malformed().count(),
        verbose ? "" : " (--verbose shows them)");
    if (verbose) {
      List<Evidence> all = new ArrayList<>(job.unrecognized().samples());
      all.addAll(job.malformed().samples());
      for (Evidence e : all) {
        out.printf("    %s: %s%n", e.where(), clip(e.text()));
      }
    }
  }

  private static String clip(String s) {
    return s.length() > 220 ? s.substring(0, 217) + "..." : s;
  }

  /** Prints {@code text} wrapped at about 100 columns, the first line after {@code lead}. */
  static void wrap(PrintWriter out, String lead, String text) {
    String indent = " ".repeat(lead.length());
    StringBuilder line = new StringBuilder(lead);
    for (String word : text.split(" ")) {
      if (line.length() + word.length() + 1 > 100 && line.length() > lead.length()) {
        out.println(line.toString().stripTrailing());
        line = new StringBuilder(indent);
      }
      line.append(word).append(' ');
    }
    out.println(line.toString().stripTrailing());
  }

  /** Lists rank ids for error messages. */
  static String ranks(List<Rank> ranks) {
    return ranks.stream().map(r -> r.id().toString()).collect(Collectors.joining(", "));
  }
}
