package io.topolens.present;

import static io.topolens.present.ValidationMarkdown.pct;

import io.topolens.perf.ExperimentValidation;
import io.topolens.perf.RunSpread;
import io.topolens.perf.RunSpread.Ratio;
import io.topolens.perf.RunSpread.Variant;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * The section of docs/model-validation.md for one job's experiment repeated on one machine, its
 * summary rows, and what it says of another experiment's one-step miss on the same job: every
 * sentence is chosen by the numbers it states.
 */
final class RunSpreadMarkdown {

  void write(int section, RunSpread s, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "## %d. Run-to-run spread: `%s` (%d runs of one job on one machine)%n%n",
        section,
        s.dir(),
        s.runs().size());
    out.println(
        "Each results.json under the folder is one run of the same experiment on one machine,"
            + " minutes apart, each after its own probe: "
            + String.join(", ", s.runs().stream().map(r -> "`" + r.results() + "`").toList())
            + ". Each run is judged on its own as the experiment sections judge theirs: its paths"
            + " calibrated by its own probes and, with one step, its compute fixed by its own `"
            + (s.reference() == null ? "-" : s.reference())
            + "` step. Nothing is fitted across runs. A step is each run's median step.");
    out.println();
    out.println(
        "| variant | runs | median s | fastest-slowest s | slowest / fastest | with one step err,"
            + " median | range |");
    out.println("|---|---|---|---|---|---|---|");
    for (Variant v : s.variants()) {
      boolean fit = v.name().equals(s.reference()) || v.oneStepErrors().isEmpty();
      out.printf(
          Locale.ROOT,
          "| %s | %d | %.3f | %.3f-%.3f | %s | %s | %s |%n",
          v.name(),
          v.measured().size(),
          RunSpread.median(v.measured()),
          RunSpread.min(v.measured()),
          RunSpread.max(v.measured()),
          v.measured().size() < 2 ? "-" : pct(v.spread()),
          fit ? "fit" : pct(RunSpread.median(v.oneStepErrors())),
          fit
              ? "-"
              : pct(RunSpread.min(v.oneStepErrors()))
                  + " to "
                  + pct(RunSpread.max(v.oneStepErrors())));
    }
    out.println();
    if (s.ratios().isEmpty()) {
      return;
    }
    out.println(
        "| ratio | runs | measured, median | lowest-highest | with one step, median |"
            + " lowest-highest | err of the median |");
    out.println("|---|---|---|---|---|---|---|");
    for (Ratio r : s.ratios()) {
      double m = RunSpread.median(r.measured());
      double p = RunSpread.median(r.predicted());
      out.printf(
          Locale.ROOT,
          "| %s | %d | %.2f | %.2f-%.2f | %.2f | %.2f-%.2f | %s |%n",
          r.name(),
          r.measured().size(),
          m,
          RunSpread.min(r.measured()),
          RunSpread.max(r.measured()),
          p,
          RunSpread.min(r.predicted()),
          RunSpread.max(r.predicted()),
          pct(p / m - 1));
    }
    out.println();
    Variant ref =
        s.variants().stream().filter(v -> v.name().equals(s.reference())).findFirst().orElseThrow();
    for (Ratio r : s.ratios()) {
      if (r.measured().size() < 2) {
        continue;
      }
      String name = r.name().substring(0, r.name().length() - (" / " + s.reference()).length());
      Variant v =
          s.variants().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
      out.printf(
          Locale.ROOT,
          "- `%s` ranged %.2f-%.2f over %d runs of one machine. Between runs `%s` moved by %s"
              + " (slowest over fastest) and `%s` by %s: %s%n",
          r.name(),
          RunSpread.min(r.measured()),
          RunSpread.max(r.measured()),
          r.measured().size(),
          s.reference(),
          pct(ref.spread()),
          name,
          pct(v.spread()),
          ref.spread() > 1.5 * v.spread()
              ? "the reference, which fixes the compute of every one-step prediction, moves more"
                  + " than the variant it predicts, so one run's one-step error is as much the"
                  + " reference's draw as the model's."
              : v.spread() > 1.5 * ref.spread()
                  ? "the variant moves more than the reference: its own step is what varies."
                  : "the two move about as much, each by its own draw: the ratio spreads with"
                      + " both.");
    }
    out.println();
  }

  /** The spread's summary rows: the one-step errors of every run held out, steps and ratios. */
  static void summary(int section, RunSpread s, PrintWriter out) {
    double step = 0;
    int held = 0;
    for (Variant v : s.variants()) {
      for (double e : v.oneStepErrors()) {
        step = Math.abs(e) > Math.abs(step) ? e : step;
        held++;
      }
    }
    double ratio = 0;
    for (Ratio r : s.ratios()) {
      for (int i = 0; i < r.measured().size(); i++) {
        double e = r.predicted().get(i) / r.measured().get(i) - 1;
        ratio = Math.abs(e) > Math.abs(ratio) ? e : ratio;
      }
    }
    if (held == 0) {
      return;
    }
    out.printf(
        Locale.ROOT,
        "| run-to-run spread (section %d): step times, probe and each run's own `%s` step, held out (%d steps of %d runs) | worst %s | %s |%n",
        section,
        s.reference(),
        held,
        s.runs().size(),
        pct(step),
        ValidationMarkdown.met(step, ValidationMarkdown.JOB_TARGET));
    out.printf(
        Locale.ROOT,
        "| run-to-run spread (section %d): ratios to `%s`, probe and each run's own step | worst %s | %s |%n",
        section,
        s.reference(),
        pct(ratio),
        ValidationMarkdown.met(ratio, ValidationMarkdown.RATIO_TARGET));
  }

  /**
   * What the spreads say of experiment {@code e}'s one-step miss on {@code variant} (its measured
   * ratio to the reference): whether runs of the same job on one machine reach that ratio. Null
   * when no spread holds the same job with the same reference.
   */
  static String missNote(
      List<RunSpread> spreads,
      int firstSection,
      ExperimentValidation.Report e,
      String variant,
      String reference,
      double measuredRatio) {
    StringBuilder note = new StringBuilder();
    for (int i = 0; i < spreads.size(); i++) {
      RunSpread s = spreads.get(i);
      Ratio r = reference.equals(s.reference()) ? s.ratio(variant, reference) : null;
      if (r == null
          || s.runs().stream().noneMatch(x -> ValidationMarkdown.sameJob(x, e, variant))
          || s.runs().contains(e)) {
        continue;
      }
      note.append(
          String.format(
              Locale.ROOT,
              " Section %d (`%s`) ran the same job %d times on one machine: `%s / %s` from %.2f"
                  + " to %.2f (this run %.2f): %s",
              firstSection + i,
              s.dir(),
              s.runs().size(),
              variant,
              reference,
              RunSpread.min(r.measured()),
              RunSpread.max(r.measured()),
              measuredRatio,
              r.covers(measuredRatio)
                  ? "this run's ratio lies inside one machine's run-to-run spread, so its miss is"
                      + " no evidence of a term the model lacks."
                  : measuredRatio > RunSpread.max(r.measured())
                      ? String.format(
                          Locale.ROOT,
                          "this run's ratio lies above every one of them (%s over the highest):"
                              + " beyond that machine's run-to-run spread.",
                          pct(measuredRatio / RunSpread.max(r.measured()) - 1))
                      : String.format(
                          Locale.ROOT,
                          "this run's ratio lies below every one of them (%s under the lowest):"
                              + " beyond that machine's run-to-run spread.",
                          pct(measuredRatio / RunSpread.min(r.measured()) - 1))));
    }
    return note.isEmpty() ? null : note.toString();
  }
}
