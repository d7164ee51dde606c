package io.topolens.present;

import io.topolens.catalog.Source;
import io.topolens.perf.CollectiveUse;
import io.topolens.perf.CommGroup;
import io.topolens.perf.Comparison;
import io.topolens.perf.Input;
import io.topolens.perf.Link;
import io.topolens.perf.Prediction;
import io.topolens.perf.Scenario;
import io.topolens.perf.StepModel;
import io.topolens.perf.Term;
import io.topolens.perf.Workload;
import java.io.PrintWriter;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/** Predictions and comparisons as text for a terminal. */
public final class PerfText {
  private final boolean verbose;

  /**
   * @param verbose also print the inputs with their sources, the assumptions and the links
   */
  public PerfText(boolean verbose) {
    this.verbose = verbose;
  }

  /** One prediction. */
  public void write(Prediction p, PrintWriter out) {
    out.println(headline(p));
    out.printf(
        Locale.ROOT,
        "Step %s s   Job %s (%d steps)%n",
        secs(p.stepS()),
        clock(p.jobS()),
        p.scenario().workload().steps());
    out.println("Bottleneck: " + p.bottleneck());
    out.println();
    out.println("Breakdown per step");
    for (Term t : p.terms()) {
      if (t.seconds() <= 0) {
        continue;
      }
      out.printf(
          Locale.ROOT,
          "  %-44s %9s s %4d%%  %s%n",
          t.label(),
          secs(t.seconds()),
          Math.round(100 * t.seconds() / p.stepS()),
          t.detail());
    }
    if (!p.collectives().isEmpty() && p.group().ranks() > 1) {
      out.println();
      out.printf(Locale.ROOT, "Collectives per step (%s)%n", group(p.group()));
      for (CollectiveUse u : p.collectives()) {
        out.printf(
            Locale.ROOT,
            "  %-15s %-28s %5d x %-10s %-6s %-6s %9s s, exposed %s s%n",
            u.op().label(),
            u.purpose(),
            u.callsPerStep(),
            bytes(u.perCall().bytes()),
            u.perCall().algorithm().name().toLowerCase(Locale.ROOT),
            u.perCall().protocol().name(),
            secs(u.seconds()),
            secs(u.exposedSeconds()));
      }
    }
    if (!p.explanations().isEmpty()) {
      out.println();
      out.println("Why");
      p.explanations().forEach(e -> out.println("  * " + e));
    }
    if (!p.warnings().isEmpty()) {
      out.println();
      out.println("Warnings");
      p.warnings().forEach(w -> out.println("  ! " + w));
    }
    if (verbose) {
      details(p, out);
    } else {
      out.println();
      out.println("(-v: inputs with their sources, links and assumptions)");
    }
    out.flush();
  }

  private void details(Prediction p, PrintWriter out) {
    out.println();
    out.println("Links");
    for (Link l : new Link[] {p.group().intra(), p.group().inter()}) {
      if (l != null) {
        out.printf(Locale.ROOT, "  %-12s %s%n", l.path().label(), l.basis());
      }
    }
    out.println();
    out.println("Assumptions");
    p.assumptions().forEach(a -> out.println("  - " + a));
    out.println();
    out.println("Inputs");
    for (Input i : p.inputs()) {
      out.printf(
          Locale.ROOT, "  %-30s %s [%s]%n", i.name(), i.value(), String.join(", ", i.sources()));
    }
    out.println();
    out.println("Sources");
    for (Source s : p.sources()) {
      out.printf(Locale.ROOT, "  %-14s %s%n", s.key(), s.url());
    }
  }

  /** A comparison table. */
  public void write(Comparison c, PrintWriter out) {
    out.printf(Locale.ROOT, "topolens compare: %d configurations%n%n", c.rows().size());
    int width =
        Math.max(
            14,
            c.rows().stream()
                .mapToInt(r -> r.prediction().scenario().name().length())
                .max()
                .orElse(14));
    out.printf(
        Locale.ROOT,
        "  %-" + width + "s  %10s  %10s  %7s%n",
        "configuration",
        "step",
        "job",
        "ratio");
    for (int i = 0; i < c.rows().size(); i++) {
      Comparison.Row r = c.rows().get(i);
      Prediction p = r.prediction();
      out.printf(
          Locale.ROOT,
          "%s %-" + width + "s  %8s s  %10s  %6sx%n",
          i == c.best() ? "*" : " ",
          p.scenario().name(),
          secs(p.stepS()),
          clock(p.jobS()),
          ratio(r.ratio()));
      out.println("    " + r.reason());
    }
    Set<String> why = new LinkedHashSet<>(c.notes());
    for (Comparison.Row r : c.rows()) {
      for (String e : r.prediction().explanations()) {
        if (e.startsWith("With ")) {
          why.add(e);
        }
      }
    }
    if (!why.isEmpty()) {
      out.println();
      out.println("Why");
      why.forEach(w -> out.println("  * " + w));
    }
    out.println();
    out.println("* fastest. Ratio: step time over the fastest's. Details: topolens predict -v.");
    if (verbose) {
      for (Comparison.Row r : c.rows()) {
        out.println();
        out.println("---");
        write(r.prediction(), out);
      }
    }
    out.flush();
  }

  static String headline(Prediction p) {
    Scenario s = p.scenario();
    Workload w = s.workload();
    String gpus =
        p.inputs().stream()
            .filter(i -> i.name().equals("GPU"))
            .map(Input::value)
            .findFirst()
            .orElse(s.cluster().ranks() + " GPUs");
    return String.format(
        Locale.ROOT,
        "%s: %s on %s, %s%s, seq %d, micro-batch %d, accumulation %d%s",
        s.name(),
        w.model().name(),
        gpus,
        w.strategy().label(),
        w.offload().any() ? " + CPU offload (" + w.offload().label() + ")" : "",
        w.seq(),
        w.microBatch(),
        w.gradAccum(),
        w.checkpointing() ? ", activation checkpointing" : "");
  }

  static String group(CommGroup g) {
    StringBuilder b =
        new StringBuilder()
            .append(g.ranks())
            .append(" ranks, NCCL sees ")
            .append(g.nodes())
            .append(g.nodes() == 1 ? " node" : " nodes")
            .append(" of ")
            .append(g.ranksPerNode());
    if (g.intra() != null) {
      b.append("; inside: ")
          .append(g.intra().path().label())
          .append(' ')
          .append(num(g.intra().busBwGBps()))
          .append(" GB/s");
    }
    if (g.inter() != null) {
      b.append("; between: ")
          .append(g.inter().path().label())
          .append(' ')
          .append(num(g.inter().busBwGBps()))
          .append(" GB/s");
    }
    return b.toString();
  }

  /** Seconds with three significant digits. */
  public static String secs(double v) {
    return StepModel.num3(v);
  }

  /** {@code 1:02:03} or {@code 12:34} or {@code 9.5 s}. */
  public static String clock(double seconds) {
    if (seconds < 60) {
      return secs(seconds) + " s";
    }
    long s = Math.round(seconds);
    long h = s / 3600;
    long m = (s % 3600) / 60;
    long sec = s % 60;
    return h > 0
        ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, sec)
        : String.format(Locale.ROOT, "%d:%02d", m, sec);
  }

  static String ratio(double r) {
    return r >= 10 ? String.format(Locale.ROOT, "%.1f", r) : String.format(Locale.ROOT, "%.2f", r);
  }

  static String num(double v) {
    if (v == Math.rint(v)) {
      return String.valueOf((long) v);
    }
    return String.format(Locale.ROOT, "%.2f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
  }

  static String bytes(long b) {
    if (b >= 1_000_000_000L) {
      return String.format(Locale.ROOT, "%.2f GB", b / 1e9);
    }
    if (b >= 1_000_000L) {
      return String.format(Locale.ROOT, "%.1f MB", b / 1e6);
    }
    return String.format(Locale.ROOT, "%.1f kB", b / 1e3);
  }
}
