package io.topolens.present;

import io.topolens.perf.OneGpuValidation;
import io.topolens.perf.ValidationReport.Fitted;
import java.io.PrintWriter;
import java.util.Locale;

/** The one-GPU section of docs/model-validation.md: fits, and each run left out of them. */
final class OneGpuMarkdown {

  void write(OneGpuValidation.Report r, PrintWriter out) {
    out.println("## 1. One GPU: compute and offload terms");
    out.println();
    out.println(
        "Measurements: "
            + String.join(", ", r.files().stream().map(f -> "`" + f + "`").toList())
            + " (bench/results/README.md says how they were made). Each constant below is fitted"
            + " to the data named beside it and shipped in perf-model.json;"
            + " each run is then predicted by `predict`'s own model with the constants fitted to"
            + " the *other* runs (leave-one-out). Runs with CPU offload are in no fit: their CPU"
            + " optimizer comes from the CPU runs, their copies from the copy runs.");
    out.println();
    if (!r.malformed().isEmpty()) {
      out.println("Malformed lines: " + String.join("; ", r.malformed()));
      out.println();
    }
    out.println("| constant | fitted value | fitted to |");
    out.println("|---|---|---|");
    for (Fitted f : r.fitted()) {
      out.printf(
          Locale.ROOT,
          "| `%s` | %.3g %s | %s |%n",
          f.parameter(),
          f.value(),
          f.unit(),
          f.fittedTo());
    }
    out.println();
    out.println(
        "| run | offload | measured s | held out s | err | all-data fit s | what sets the pace |"
            + " measured in |");
    out.println("|---|---|---|---|---|---|---|---|");
    for (OneGpuValidation.Row row : r.rows()) {
      out.printf(
          Locale.ROOT,
          "| %s | %s | %.3f | %.3f | %s | %.3f | %s | %s |%n",
          row.tag(),
          row.offload() ? "yes" : "no",
          row.measured(),
          row.heldOut(),
          ValidationMarkdown.pct(row.heldOutError()),
          row.inSample(),
          row.pace(),
          row.evidence());
    }
    out.println();
    if (!r.cpu().isEmpty()) {
      out.println(
          "CPU AdamW (one process) against its threads, each thread count predicted from the"
              + " others (ns per parameter):");
      out.println();
      out.println("| threads | measured | held out | err |");
      out.println("|---|---|---|---|");
      for (OneGpuValidation.CpuRow c : r.cpu()) {
        out.printf(
            Locale.ROOT,
            "| %d | %.2f | %.2f | %s |%n",
            c.threads(),
            c.measured() * 1e9,
            c.heldOut() * 1e9,
            ValidationMarkdown.pct(c.heldOutError()));
      }
      out.println();
    }
    out.printf(
        Locale.ROOT,
        "Worst held-out error: %s without offload, %s with it (target %.0f%%).%n%n",
        ValidationMarkdown.pct(r.worstHeldOut(false)),
        ValidationMarkdown.pct(r.worstHeldOut(true)),
        100 * OneGpuValidation.TARGET);
  }
}
