package io.topolens.kube.present;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.kube.lint.LintResult;
import io.topolens.kube.model.Located;
import io.topolens.kube.model.PodGroup;
import io.topolens.kube.model.Workload;
import io.topolens.model.Evidence;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code topolens lint} as text: what was read, then findings with evidence (file:line) and fixes.
 */
public final class LintTextReport {

  public void write(LintResult r, PrintWriter out) {
    out.printf(
        "topolens lint: %d file(s), %d job(s) and runtime(s)%n",
        r.files().size(), r.workloads().size());
    for (Workload w : r.workloads()) {
      out.printf(
          "  %s (%s:%d)%s%n", w.label(), w.evidence().file(), w.evidence().line(), groups(w));
    }
    for (Located<String> s : r.skipped()) {
      out.printf("  skipped %s (%s:%d)%n", s.value(), s.evidence().file(), s.evidence().line());
    }
    Map<Severity, Long> counts =
        r.findings().stream()
            .collect(Collectors.groupingBy(Finding::severity, Collectors.counting()));
    out.println();
    out.printf(
        "Findings: %d error, %d warn, %d info%n",
        counts.getOrDefault(Severity.ERROR, 0L),
        counts.getOrDefault(Severity.WARN, 0L),
        counts.getOrDefault(Severity.INFO, 0L));
    for (Finding f : r.findings()) {
      out.println();
      out.printf("%-5s %s: %s%n", f.severity().label().toUpperCase(Locale.ROOT), f.id(), f.title());
      Wrap.print(out, "  why  ", f.explanation());
      if (!f.evidence().isEmpty()) {
        out.println("  evidence");
        for (Evidence e : f.evidence()) {
          out.printf("    %s:%d: %s%n", e.file(), e.line(), Wrap.clip(e.text()));
        }
      }
      Wrap.print(out, "  fix  ", f.fix());
    }
    out.flush();
  }

  private static String groups(Workload w) {
    if (w.groups().isEmpty()) {
      return "";
    }
    return ": " + w.groups().stream().map(LintTextReport::group).collect(Collectors.joining(", "));
  }

  private static String group(PodGroup g) {
    String n = g.count().isPresent() ? String.valueOf(g.count().getAsInt()) : "?";
    String gpus = g.pod().gpus().map(String::valueOf).orElse("?");
    String type =
        g.pod().instanceTypes().stream()
            .map(t -> t.value() == null ? "?" : t.value())
            .collect(Collectors.joining("|"));
    return g.role() + " " + n + " x " + gpus + " GPU" + (type.isEmpty() ? "" : " on " + type);
  }
}
