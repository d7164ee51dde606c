package io.topolens.report;

import io.topolens.diagnose.Diagnosis;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.experiment.Experiment;
import io.topolens.model.Job;
import io.topolens.verdict.BenchVerdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The report's first lines: what was read (job, NCCL version, ranks, nodes, network) and how many
 * findings of each severity, from the same models the text output summarises.
 *
 * @param rows label and value, in order
 * @param severities findings (and bench verdicts, when there is no diagnosis; and every experiment
 *     variant's findings) per severity
 */
public record Summary(List<Row> rows, Map<Severity, Integer> severities) {

  /** One line of the summary. */
  public record Row(String label, String value) {}

  static Summary of(
      List<String> inputs,
      Diagnosis d,
      List<BenchVerdict> verdicts,
      int configurations,
      Experiment e) {
    List<Row> rows = new ArrayList<>();
    if (!inputs.isEmpty()) {
      rows.add(
          new Row(
              "job",
              inputs.size() <= 4
                  ? String.join(", ", inputs)
                  : String.join(", ", inputs.subList(0, 3))
                      + " and "
                      + (inputs.size() - 3)
                      + " more inputs"));
    }
    Map<Severity, Integer> sev = new EnumMap<>(Severity.class);
    for (Severity s : Severity.values()) {
      sev.put(s, 0);
    }
    TreeSet<String> versions = new TreeSet<>();
    Job job = d == null ? null : d.job();
    if (job != null && !job.ranks().isEmpty()) {
      versions.addAll(job.ncclVersions());
      long nodes = job.ranks().stream().map(r -> job.node(r.id().host())).distinct().count();
      rows.add(new Row("ranks", job.ranks().size() + " GPU context(s)"));
      rows.add(new Row("nodes", nodes + (job.hasNodeMap() ? " (node map)" : " (by hostname)")));
      List<String> nets = job.selectedNetPlugins();
      rows.add(new Row("network", nets.isEmpty() ? "not printed" : String.join(", ", nets)));
      rows.add(new Row("communicators", String.valueOf(job.communicators().size())));
      if (job.unrecognized().count() > 0 || job.malformed().count() > 0) {
        rows.add(
            new Row(
                "unread lines",
                job.unrecognized().count()
                    + " unrecognized NCCL line(s), "
                    + job.malformed().count()
                    + " malformed (topolens diagnose --verbose lists them)"));
      }
    }
    if (d != null) {
      for (Finding f : d.findings()) {
        sev.merge(f.severity(), 1, Integer::sum);
      }
    }
    for (BenchVerdict v : verdicts) {
      if (v.run().ncclVersion() != null) {
        versions.add(version(v.run().ncclVersion()));
      }
      if (d == null) {
        sev.merge(v.grade().severity(), 1, Integer::sum);
      }
    }
    if (!verdicts.isEmpty()) {
      rows.add(new Row("nccl-tests runs", String.valueOf(verdicts.size())));
    }
    if (!versions.isEmpty() || (job != null && !job.ranks().isEmpty())) {
      rows.add(
          Math.min(1, rows.size()),
          new Row(
              "NCCL", versions.isEmpty() ? "version not printed" : String.join(", ", versions)));
    }
    if (configurations > 0) {
      rows.add(new Row("configurations", configurations + " predicted"));
    }
    if (e != null) {
      long ok = e.variants().stream().filter(v -> "ok".equals(v.status())).count();
      int found = 0;
      for (Experiment.Variant v : e.variants()) {
        for (Experiment.FindingRef f : v.findings()) {
          sev.merge(Severity.parse(f.severity()), 1, Integer::sum);
          found++;
        }
      }
      rows.add(
          new Row(
              "experiment",
              e.name()
                  + ": "
                  + e.variants().size()
                  + " variants, "
                  + ok
                  + " ran"
                  + (found == 0 ? "" : "; their " + found + " finding(s) are counted above")));
    }
    return new Summary(rows, sev);
  }

  /** NCCL's version code (22809, or 2804 before 2.9) as 2.28.9. */
  static String version(int code) {
    return code >= 10000
        ? code / 10000 + "." + (code / 100) % 100 + "." + code % 100
        : code / 1000 + "." + (code / 100) % 10 + "." + code % 100;
  }

  public int count(Severity s) {
    return severities.getOrDefault(s, 0);
  }
}
