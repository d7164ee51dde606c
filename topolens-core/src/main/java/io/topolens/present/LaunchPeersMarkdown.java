package io.topolens.present;

import io.topolens.perf.LaunchPeers;
import io.topolens.perf.LaunchPeers.Point;
import io.topolens.perf.ValidationReport.OnePodStep;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * Section 1's part on FSDP2's launches against world size: the runs {@code
 * compute.launchPerPeerShare} is fitted to, each file held out, and each experiment's one-pod step
 * with and without the term.
 */
final class LaunchPeersMarkdown {

  void write(LaunchPeers p, double shipped, List<OnePodStep> onePod, PrintWriter out) {
    out.println("### FSDP2's launches against world size (the one-pod step)");
    out.println();
    out.printf(
        Locale.ROOT,
        "FSDP2 over NCCL at world 1 and at world %s on one host (bench/fsdp-phases.py): each run's"
            + " forward+backward (its slowest rank's) over the median world-1 run of the same shape"
            + " in the same file. `compute.launchPerPeerShare` = the median of (ratio - 1) / (ranks"
            + " - 1): %.3f (shipped %.3f); the launches of a layer take 1 + share x (ranks - 1)"
            + " times those of one rank, up to the most ranks measured. Each file is also predicted"
            + " with the share of the other files alone.%n%n",
        String.join(
            ", ",
            p.points().stream().map(x -> String.valueOf(x.world())).distinct().sorted().toList()),
        p.share(),
        shipped);
    out.println(
        "| measured in | run | shape | ranks | fwd+bwd s | world 1 s (runs) | ratio | own share |"
            + " held out ratio | err |");
    out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (Point x : p.points()) {
      Double s = p.heldOut().get(x.file());
      out.printf(
          Locale.ROOT,
          "| %s | %s | %s | %d | %.4f | %.4f (%d) | %.3f | %+.3f | %s | %s |%n",
          x.file(),
          x.label(),
          x.tag(),
          x.world(),
          x.fwdBwdS(),
          x.worldOneS(),
          x.worldOneRuns(),
          x.ratio(),
          x.share(),
          s == null ? "-" : String.format(Locale.ROOT, "%.3f", x.predicted(s)),
          s == null ? "-" : ValidationMarkdown.pct(x.predicted(s) / x.ratio() - 1));
    }
    out.println();
    for (String f : p.files()) {
      Double s = p.heldOut().get(f);
      if (s != null) {
        out.printf(
            Locale.ROOT,
            "- `%s` held out: share %.3f from the other file%s, worst ratio error %s.%n",
            f,
            s,
            p.files().size() > 2 ? "s" : "",
            ValidationMarkdown.pct(p.worstHeldOut(f)));
      }
    }
    for (String tag : p.points().stream().map(Point::tag).distinct().toList()) {
      java.util.Map<String, Double> one = new java.util.LinkedHashMap<>();
      for (Point x : p.points()) {
        if (x.tag().equals(tag)) {
          one.putIfAbsent(x.file(), x.worldOneS());
        }
      }
      if (one.size() > 1) {
        double lo = one.values().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double hi = one.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double term = p.share() * (p.maxWorld() - 1);
        out.printf(
            Locale.ROOT,
            "- World 1 itself, %s: %s s on the %d hosts, the slowest %s over the fastest: one"
                + " rank's launches (`compute.launchPerLayerS`, one machine's fit) move between"
                + " machines of one kind by %s the world-size term adds at %d ranks (%s).%n",
            tag,
            String.join(
                ", ",
                one.values().stream().map(v -> String.format(Locale.ROOT, "%.4f", v)).toList()),
            one.size(),
            ValidationMarkdown.pct(hi / lo - 1),
            hi / lo - 1 > term ? "more than" : "less than",
            p.maxWorld(),
            ValidationMarkdown.pct(term));
      }
    }
    if (!onePod.isEmpty()) {
      double worstWith = worst(onePod, true);
      double worstWithout = worst(onePod, false);
      out.println();
      out.println(
          "Each experiment's reference step (the variant the model predicts fastest without"
              + " offload: one pod over NVLink), calibrated by its own probe (section 3's by the"
              + " section 2 files of its machine), with the term and without it (1 + 0 x (ranks -"
              + " 1): the launches of one rank). None of these runs is in the fit above.");
      out.println();
      out.println("| experiment | variant | ranks | measured s | with s | err | without s | err |");
      out.println("|---|---|---|---|---|---|---|---|");
      for (OnePodStep o : onePod) {
        out.printf(
            Locale.ROOT,
            "| `%s` | %s | %d | %.3f | %.3f | %s | %.3f | %s |%n",
            o.results(),
            o.variant(),
            o.ranks(),
            o.measured(),
            o.with(),
            ValidationMarkdown.pct(o.with() / o.measured() - 1),
            o.without(),
            ValidationMarkdown.pct(o.without() / o.measured() - 1));
      }
      out.println();
      for (int ranks : onePod.stream().mapToInt(OnePodStep::ranks).distinct().sorted().toArray()) {
        List<OnePodStep> of = onePod.stream().filter(o -> o.ranks() == ranks).toList();
        out.printf(
            Locale.ROOT,
            "- %d ranks, %d experiments: worst %s with the term, %s without; mean %s with, %s"
                + " without.%n",
            ranks,
            of.size(),
            ValidationMarkdown.pct(worst(of, true)),
            ValidationMarkdown.pct(worst(of, false)),
            ValidationMarkdown.pct(mean(of, true)),
            ValidationMarkdown.pct(mean(of, false)));
      }
      out.printf(
          Locale.ROOT,
          "- All: worst %s with the term, %s without.%n",
          ValidationMarkdown.pct(worstWith),
          ValidationMarkdown.pct(worstWithout));
    }
    out.println();
  }

  /** The error of largest size, with or without the term. */
  static double worst(List<OnePodStep> steps, boolean with) {
    return steps.stream()
        .mapToDouble(o -> (with ? o.with() : o.without()) / o.measured() - 1)
        .reduce((a, b) -> Math.abs(a) >= Math.abs(b) ? a : b)
        .orElse(Double.NaN);
  }

  private static double mean(List<OnePodStep> steps, boolean with) {
    return steps.stream()
        .mapToDouble(o -> (with ? o.with() : o.without()) / o.measured() - 1)
        .average()
        .orElse(Double.NaN);
  }
}
