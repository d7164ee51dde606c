package io.topolens.present;

import static io.topolens.present.ValidationMarkdown.pct;

import io.topolens.perf.LaunchChecks;
import io.topolens.perf.LaunchChecks.Check;
import io.topolens.perf.PerfConstants;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The section of docs/model-validation.md for steps whose probe measured the host's launch speed,
 * predicted with it and without it, and its summary row: every sentence is chosen by the numbers it
 * states.
 */
final class LaunchMarkdown {
  private static final double TARGET = 0.30;

  /** The summary row: the worst and mean error with the probe's launch speed and without it. */
  static void summary(List<Check> checks, PrintWriter out) {
    double with = LaunchChecks.worst(checks, true);
    out.printf(
        Locale.ROOT,
        "| one-pod steps with the host's launch speed measured by each run's own probe (%d runs,"
            + " %d machines), held out | worst %s, mean |err| %s (with the fit host's launch"
            + " time: worst %s, mean |err| %s) | %s |%n",
        checks.size(),
        byResults(checks).size(),
        pct(with),
        pct(LaunchChecks.meanAbs(checks, true)).replace("+", ""),
        pct(LaunchChecks.worst(checks, false)),
        pct(LaunchChecks.meanAbs(checks, false)).replace("+", ""),
        ValidationMarkdown.met(with, TARGET));
  }

  void write(int section, List<Check> checks, PerfConstants k, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "## %d. The host's launch speed, measured by the probe (held out)%n%n",
        section);
    out.printf(
        Locale.ROOT,
        "Each run measured its step after its own probe, whose launch micro-benchmark (probe.py's"
            + " `launch_costs`; its layer op: host microseconds per forward and backward of a"
            + " small MLP block under autograd, the median over the probe's ranks) scales the"
            + " per-layer launch time: `compute.launchPerLayerS` x the op / `compute.launchRefLayerUs`"
            + " (%.0f us/op, bridged on one H100: bench/results/h100-launch). Each run is predicted"
            + " with the probe's launch speed and with the fit host's (what the model does without"
            + " a probe's launch line), its paths calibrated by its own probe's busbw. Nothing is"
            + " fitted to these runs; the predictions were written down before they were measured"
            + " (bench/results/launch-heldout-predictions).%n%n",
        k.value("compute.launchRefLayerUs"));
    out.println(
        "| measured in | variant | probe's layer op us | measured s | with the probe's launch s"
            + " | err | with the fit host's s | err |");
    out.println("|---|---|---|---|---|---|---|---|");
    for (Check c : checks) {
      out.printf(
          Locale.ROOT,
          "| %s | %s | %.1f | %.3f | %.3f | %s | %.3f | %s |%n",
          c.results(),
          c.variant(),
          c.layerUs(),
          c.measured(),
          c.with(),
          pct(c.errorWith()),
          c.without(),
          pct(c.errorWithout()));
    }
    out.println();
    Map<String, List<Check>> by = byResults(checks);
    for (Map.Entry<String, List<Check>> e : by.entrySet()) {
      line("`" + e.getKey() + "`", e.getValue(), out);
    }
    line("All " + checks.size() + " runs", checks, out);
    double narrow = LaunchChecks.meanAbs(checks, true) - LaunchChecks.meanAbs(checks, false);
    double r = correlation(checks);
    out.println();
    out.printf(
        Locale.ROOT,
        "Over the %d runs the probe's layer op and the measured step correlate at %.2f: the probe's"
            + " launch speed %s the mean error by %.1f points%s.%n%n",
        checks.size(),
        r,
        narrow < 0 ? "narrows" : "widens",
        Math.abs(narrow) * 100,
        narrow < 0
            ? ""
            : "; the probe's draw of the host's launch speed does not carry to the training's"
                + " processes, which draw their own (bench/results/h100-launch: in one process the"
                + " op moves with the step, between processes of one host both move by tens of"
                + " percent)");
  }

  private static void line(String what, List<Check> c, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "- %s: with the probe's launch speed worst %s, mean |err| %s; with the fit host's worst %s,"
            + " mean |err| %s.%n",
        what,
        pct(LaunchChecks.worst(c, true)),
        pct(LaunchChecks.meanAbs(c, true)).replace("+", ""),
        pct(LaunchChecks.worst(c, false)),
        pct(LaunchChecks.meanAbs(c, false)).replace("+", ""));
  }

  private static Map<String, List<Check>> byResults(List<Check> checks) {
    Map<String, List<Check>> m = new LinkedHashMap<>();
    for (Check c : checks) {
      m.computeIfAbsent(c.results(), x -> new ArrayList<>()).add(c);
    }
    return m;
  }

  /** Pearson's correlation of the probe's layer op and the measured step; 0 when undefined. */
  static double correlation(List<Check> c) {
    int n = c.size();
    if (n < 2) {
      return 0;
    }
    double mx = c.stream().mapToDouble(Check::layerUs).average().orElse(0);
    double my = c.stream().mapToDouble(Check::measured).average().orElse(0);
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (Check x : c) {
      sxy += (x.layerUs() - mx) * (x.measured() - my);
      sxx += (x.layerUs() - mx) * (x.layerUs() - mx);
      syy += (x.measured() - my) * (x.measured() - my);
    }
    return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
  }
}
