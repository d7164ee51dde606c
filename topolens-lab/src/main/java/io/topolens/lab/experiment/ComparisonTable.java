package io.topolens.lab.experiment;

import io.topolens.experiment.Experiment;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The table printed at the end of an experiment, one row per variant: its status, the paths NCCL
 * printed in its logs, the peak busbw of each collective, the median step, how far it is from the
 * best variant, its most severe finding, and {@code predict}'s step for it with its error against
 * the measured median: from its own probe, and with one measured step (the reference variant's,
 * named in a line under the table) as well ({@code -} without a {@code predict:} block in the
 * spec).
 *
 * <p>"vs best" compares median steps when any variant trained (step / best step), else the first
 * collective's peak busbw (best busbw / busbw): 1.00x is the best, 2.00x twice as slow.
 */
public final class ComparisonTable {
  private ComparisonTable() {}

  public static void print(Experiment e, PrintWriter out) {
    Set<String> collectives = new LinkedHashSet<>();
    boolean steps = false;
    for (Experiment.Variant v : e.variants()) {
      collectives.addAll(v.busbw().keySet());
      steps |= v.stepSeconds() != null;
    }
    List<String> header = new ArrayList<>(List.of("variant", "status", "transport"));
    for (String c : collectives) {
      header.add(c + " GB/s");
    }
    header.addAll(List.of("step s", "vs best", "main finding", "predicted s", "with one step s"));
    String first = collectives.isEmpty() ? null : collectives.iterator().next();
    double best = best(e, steps, first);
    List<List<String>> rows = new ArrayList<>();
    rows.add(header);
    for (Experiment.Variant v : e.variants()) {
      List<String> r = new ArrayList<>();
      r.add(v.name());
      r.add(v.status());
      r.add(v.transports().isEmpty() ? "-" : String.join(",", v.transports()));
      for (String c : collectives) {
        Double b = v.busbw().get(c);
        r.add(b == null ? "-" : num(b));
      }
      r.add(v.stepSeconds() == null ? "-" : num(v.stepSeconds().median()));
      r.add(ratio(v, steps, first, best));
      Experiment.FindingRef f = v.mainFinding();
      r.add(f == null ? "-" : f.severity() + " " + f.id());
      r.add(predicted(v.predictedSeconds(), v.predictionError()));
      r.add(predicted(v.predictedWithStepSeconds(), v.predictionWithStepError()));
      rows.add(r);
    }
    int[] width = new int[header.size()];
    for (List<String> r : rows) {
      for (int i = 0; i < r.size(); i++) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    out.println("Experiment " + e.name());
    for (List<String> r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.size(); i++) {
        String cell = r.get(i);
        boolean numeric = i >= 3 && i < r.size() - 3;
        line.append(numeric ? pad(cell, width[i], true) : pad(cell, width[i], false));
        line.append(i + 1 < r.size() ? "  " : "");
      }
      out.println(line.toString().stripTrailing());
    }
    e.variants().stream()
        .map(Experiment.Variant::predictedWithStepFrom)
        .filter(java.util.Objects::nonNull)
        .distinct()
        .forEach(f -> out.println("with one step: " + f + "; the other variants held out"));
    out.flush();
  }

  private static double best(Experiment e, boolean steps, String collective) {
    double best = Double.NaN;
    for (Experiment.Variant v : e.variants()) {
      Double x = value(v, steps, collective);
      if (x != null && (Double.isNaN(best) || (steps ? x < best : x > best))) {
        best = x;
      }
    }
    return best;
  }

  private static Double value(Experiment.Variant v, boolean steps, String collective) {
    if (!v.ok()) {
      return null;
    }
    if (steps) {
      return v.stepSeconds() == null ? null : v.stepSeconds().median();
    }
    Double b = collective == null ? null : v.busbw().get(collective);
    return b == null || b <= 0 ? null : b;
  }

  private static String ratio(Experiment.Variant v, boolean steps, String collective, double best) {
    Double x = value(v, steps, collective);
    if (x == null || Double.isNaN(best)) {
      return "-";
    }
    double r = steps ? x / best : best / x;
    return String.format(Locale.ROOT, "%.2fx", r);
  }

  private static String predicted(Double seconds, Double err) {
    if (seconds == null) {
      return "-";
    }
    if (err == null) {
      return num(seconds);
    }
    long pct = Math.round(err * 100);
    return num(seconds) + (pct == 0 ? " (0%)" : String.format(Locale.ROOT, " (%+d%%)", pct));
  }

  private static String num(double x) {
    return x >= 100 ? String.format(Locale.ROOT, "%.1f", x) : String.format(Locale.ROOT, "%.3g", x);
  }

  private static String pad(String s, int w, boolean right) {
    String fill = " ".repeat(Math.max(0, w - s.length()));
    return right ? fill + s : s + fill;
  }
}
