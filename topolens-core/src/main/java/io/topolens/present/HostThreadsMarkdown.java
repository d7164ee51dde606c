package io.topolens.present;

import io.topolens.perf.HostThreadsSweep;
import io.topolens.perf.HostThreadsSweep.Effect;
import io.topolens.perf.HostThreadsSweep.Group;
import io.topolens.perf.HostThreadsSweep.Setting;
import io.topolens.perf.Offload;
import io.topolens.perf.Workload;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The host-threads sweep's section of docs/model-validation.md, and what it says of an experiment's
 * miss on the same shape: every sentence is chosen by the numbers it states.
 */
final class HostThreadsMarkdown {

  void write(int section, HostThreadsSweep s, PrintWriter out) {
    out.println("## " + section + ". CPU threads against the step (host-threads sweep)");
    out.println();
    out.println(
        "Measurements: "
            + String.join(", ", s.files().stream().map(f -> "`" + f + "`").toList())
            + " (bench/host-threads.py, each file one machine; the README beside them says how"
            + " they were made). Each row is the runs of one setting: processes x CPU threads"
            + " (torch's own count) against the host's vCPUs, busy co-processes beside them, the"
            + " median of the runs' step medians and their range, and the vCPUs each rank kept busy"
            + " over its timed steps (CPU seconds over wall seconds). Nothing here is fitted: the"
            + " sweep asks whether threads over the vCPUs are a term the step needs.");
    out.println();
    if (!s.malformed().isEmpty()) {
      out.println("Malformed lines: " + String.join("; ", s.malformed()));
      out.println();
    }
    out.println(
        "| measured in | shape | setting | processes x threads / vCPUs | co-processes | runs | step s"
            + " | runs' range s | vCPUs busy per rank |");
    out.println("|---|---|---|---|---|---|---|---|---|");
    for (Setting setting : s.settings()) {
      Group g = setting.group();
      var x = setting.run();
      out.printf(
          Locale.ROOT,
          "| %s | %s | %s | %d x %d / %d | %d | %d | %.3f | %.3f-%.3f | %.2f-%.2f |%n",
          x.evidence().file(),
          x.shape(),
          x.setting(),
          x.procs(),
          x.threads(),
          x.vcpus(),
          x.spinners(),
          g.runs(),
          g.medianS(),
          g.minS(),
          g.maxS(),
          g.busyMin(),
          g.busyMax());
    }
    out.println();
    boolean noTerm = true;
    List<String> lines = new ArrayList<>();
    List<String> unrepeated = new ArrayList<>();
    for (String shape : s.shapes()) {
      int machines = 0;
      for (String file : s.files()) {
        Effect e = s.effect(shape, file::equals);
        if (e != null && e.over() != null) {
          machines++;
          lines.add(shape + ", `" + file + "`: " + effectText(e));
          if (!e.overWithinSpread()) {
            unrepeated.add(
                String.format(
                    Locale.ROOT,
                    "%s on `%s`: %s",
                    shape,
                    file,
                    ValidationMarkdown.pct(e.overEffect())));
          }
        }
      }
      Effect all = s.effect(shape, f -> true);
      if (all != null && all.over() != null) {
        if (machines > 1) {
          lines.add(shape + ", all machines: " + effectText(all));
        }
        noTerm &= all.overWithinSpread() && all.overThreadsIdle();
      }
      if (all != null && all.spinning() != null) {
        Group g = all.spinning();
        lines.add(
            String.format(
                Locale.ROOT,
                "%s beside busy co-processes: %.3f s (%d runs, %.3f-%.3f) against %.3f s, %s; each"
                    + " rank kept %.2f-%.2f vCPUs busy.",
                shape,
                g.medianS(),
                g.runs(),
                g.minS(),
                g.maxS(),
                all.within().medianS(),
                ValidationMarkdown.pct(all.spinEffect()),
                g.busyMin(),
                g.busyMax()));
      }
    }
    lines.forEach(l -> out.println("- " + l));
    out.println();
    out.println(
        noTerm
            ? "Threads over the vCPUs are no term of these steps: workers with no CPU work to do"
                + " sleep and take no vCPU from the thread that launches the kernels, and the step"
                + " moves less with them than between runs of one setting. What slows the launches"
                + " is CPU taken by work that runs (the co-processes above); no input of `predict`"
                + " declares such work, so it is not modelled."
            : "Threads over the vCPUs slow some step beyond the spread of its runs, or keep its"
                + " ranks busy beyond the launching thread (above): a term the model lacks.");
    if (noTerm && !unrepeated.isEmpty()) {
      out.println();
      out.println(
          "One machine's runs moved by more than their own spread ("
              + String.join("; ", unrepeated)
              + ") where the machines together did not: an effect the other machine's runs did"
              + " not repeat, with the workers idle on both.");
    }
    out.println();
  }

  private static String effectText(Effect e) {
    return String.format(
        Locale.ROOT,
        "threads over the vCPUs %.3f s (%d runs) against %.3f s within them (%d runs): %s, %s the"
            + " %.1f%% the runs within the vCPUs spread among themselves (%.3f-%.3f s); ranks with"
            + " threads over the vCPUs kept %.2f-%.2f vCPUs busy each: %s.",
        e.over().medianS(),
        e.over().runs(),
        e.within().medianS(),
        e.within().runs(),
        ValidationMarkdown.pct(e.overEffect()),
        e.overWithinSpread() ? "less than" : "more than",
        100 * e.within().spread(),
        e.within().minS(),
        e.within().maxS(),
        e.over().busyMin(),
        e.over().busyMax(),
        e.overThreadsIdle()
            ? "their OpenMP workers sat idle"
            : "their workers ran beside the launching thread");
  }

  /**
   * What the sweep says of an experiment's miss on a variant it swept (same hidden size, layers and
   * sequence, no offload), or null when it swept no such shape or found no threads over the vCPUs.
   *
   * @param others the same variant measured in the other experiments, seconds
   */
  static String missNote(
      HostThreadsSweep s,
      int section,
      Workload w,
      double measured,
      double predicted,
      List<Double> others) {
    if (s == null || w == null || w.offload() != Offload.NONE) {
      return null;
    }
    String shape = s.shapeOf(w.model().hidden(), w.model().layers(), w.seq());
    Effect e = shape == null ? null : s.effect(shape, f -> true);
    if (e == null || e.over() == null) {
      return null;
    }
    double lo = Math.min(e.within().minS(), e.over().minS());
    double hi = Math.max(e.within().maxS(), e.over().maxS());
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                " The host-threads sweep (section %d) ran this shape: threads over the vCPUs %.3f s"
                    + " against %.3f s within them (%s, %s the %.1f%% spread of runs of one"
                    + " setting), each rank keeping at most %.2f vCPUs busy (%s)",
                section,
                e.over().medianS(),
                e.within().medianS(),
                ValidationMarkdown.pct(e.overEffect()),
                e.overWithinSpread() ? "less than" : "more than",
                100 * e.within().spread(),
                e.over().busyMax(),
                e.overThreadsIdle() ? "its OpenMP workers idle" : "its workers running"));
    double largest = e.overEffect();
    for (String file : s.files()) {
      Effect one = s.effect(shape, file::equals);
      if (one != null && one.over() != null && one.overEffect() > largest) {
        largest = one.overEffect();
      }
    }
    boolean explained = !(e.overWithinSpread() && e.overThreadsIdle());
    b.append(
        String.format(
            Locale.ROOT,
            "; the most on one machine, %s, against the %s by which this run exceeds its"
                + " prediction: %s",
            ValidationMarkdown.pct(largest),
            ValidationMarkdown.pct(measured / predicted - 1),
            explained
                ? "the threads account for part of this miss."
                : "the threads do not explain this miss."));
    List<Double> all = new ArrayList<>(others);
    all.add(measured);
    double mLo = all.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double mHi = all.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    b.append(
        String.format(
            Locale.ROOT,
            " Its runs took %.3f-%.3f s whatever the threads, and the experiments measured this"
                + " variant at %.3f-%.3f s: %s",
            lo,
            hi,
            mLo,
            mHi,
            mLo < lo || mHi > hi
                ? "the step of one setting moves between machines and sessions by more than the"
                    + " threads move it, and the model carries one launch time per layer"
                    + " (`compute.launchPerLayerS`, fitted on one machine)."
                : "the experiments lie within the sweep's own spread."));
    return b.toString();
  }
}
