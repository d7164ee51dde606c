package io.topolens.present;

import static io.topolens.present.ValidationMarkdown.met;
import static io.topolens.present.ValidationMarkdown.pct;
import static io.topolens.present.ValidationMarkdown.worstError;

import io.topolens.perf.PublicOffloadRuns.Report;
import io.topolens.perf.PublicOffloadRuns.Run;
import io.topolens.perf.PublicOffloadRuns.Seed;
import io.topolens.perf.StepModel;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The section of docs/model-validation.md for public DeepSpeed ZeRO-Offload runs: each predicted by
 * the shipped model, then with {@code cpuAdam.deepspeed} refitted to the others, and the seeds'
 * jobs with the rate all of them support; every sentence is chosen by the numbers it states.
 */
final class PublicOffloadMarkdown {
  private static final double TARGET = 0.30;
  private static final double PAIR_TARGET = 0.20;

  /** The summary rows. */
  static void summary(Report r, PrintWriter out) {
    double shipped = worstError(r.runs().stream().map(Run::error).toList());
    long within = r.runs().stream().filter(x -> Math.abs(x.error()) <= TARGET).count();
    out.printf(
        Locale.ROOT,
        "| public DeepSpeed ZeRO-Offload runs (%d, bench/results/public-deepspeed), the model as"
            + " shipped, held out (but issue 1635's forward and backward, the ZeRO-3 hooks' fit) |"
            + " worst %s, %d of %d within 30%% | %s |%n",
        r.runs().size(),
        pct(shipped),
        within,
        r.runs().size(),
        met(shipped, TARGET));
    if (r.fittedRate() == null) {
      return;
    }
    double loo = worstError(r.heldOut().stream().map(Run::looError).toList());
    long looWithin = r.heldOut().stream().filter(x -> Math.abs(x.looError()) <= TARGET).count();
    long shippedWithin = r.heldOut().stream().filter(x -> Math.abs(x.error()) <= TARGET).count();
    out.printf(
        Locale.ROOT,
        "| public offload runs, `cpuAdam.deepspeed` refitted leave-one-out (%d runs) | worst %s,"
            + " %d within 30%% (shipped rate on the same runs: worst %s, %d within 30%%) | %s |%n",
        r.heldOut().size(),
        pct(loo),
        looWithin,
        pct(worstError(r.heldOut().stream().map(Run::error).toList())),
        shippedWithin,
        met(loo, TARGET));
    double seeds =
        worstError(r.seeds().stream().map(s -> s.fittedS() / s.measuredS() - 1).toList());
    out.printf(
        Locale.ROOT,
        "| seeds' job times with the public runs' CPU Adam rate, nothing fitted to the seeds |"
            + " worst %s | %s |%n",
        pct(seeds),
        met(seeds, TARGET));
    double pairs = worstError(pairs(r.seeds()).stream().map(p -> p[1] / p[0] - 1).toList());
    out.printf(
        Locale.ROOT,
        "| seeds' pair ratios with the public runs' CPU Adam rate | worst %s | %s |%n",
        pct(pairs),
        met(pairs, PAIR_TARGET));
  }

  void write(int section, Report r, List<Double> seedGapsS, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "## %d. Public DeepSpeed ZeRO-Offload runs (held out), and the CPU Adam rate they"
            + " support%n%n",
        section);
    out.printf(
        Locale.ROOT,
        "Configurations: `%s` (hosts in `public-deepspeed-catalog.json` beside it); each run's"
            + " excerpt, URL, hardware, configuration and what its source leaves unknown:"
            + " `bench/results/public-deepspeed/README.md`. First each run as the model ships"
            + " (nothing fitted to them). Then `cpuAdam.deepspeed`, the one DeepSpeed offload"
            + " constant these runs bear on (DeepSpeedCPUAdam's parameters per second per host,"
            + " shipped at %s from DS-6834 and SLIME-1139), refitted leave-one-out: each offload"
            + " run implies a host rate, its host's parameters over the measured step less every"
            + " other priced term, and is predicted with the median of the rates of the runs of other"
            + " setups (a setup measured twice, by the DeepSpeed blog and PR 7474, is left out"
            + " whole: its twin is no held-out datum).%n%n",
        r.config(),
        StepModel.sci(r.shippedRate()));
    out.println(
        "| run | measured s | predicted s | err | CPU optimizer s | parameters per host | implied"
            + " rate /s | others' median /s | with it s | err | measured in |");
    out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    for (Run x : r.runs()) {
      out.printf(
          Locale.ROOT,
          "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
          x.name(),
          StepModel.num3(x.measured()),
          StepModel.num3(x.predicted()),
          pct(x.error()),
          StepModel.num3(x.cpuS()),
          x.onHost() > 0 ? StepModel.sci(x.onHost()) : "-",
          x.impliedRate() == null ? "-" : StepModel.sci(x.impliedRate()),
          x.looRate() == null ? "-" : StepModel.sci(x.looRate()),
          x.looPredicted() == null ? "-" : StepModel.num3(x.looPredicted()),
          x.looError() == null ? "-" : pct(x.looError()),
          x.source());
    }
    out.println();
    if (r.fittedRate() == null) {
      out.println("No run implies a host rate: nothing is refitted.\n");
      return;
    }
    List<String> rates = new ArrayList<>();
    r.runs().stream()
        .filter(x -> x.impliedRate() != null)
        .forEach(x -> rates.add(StepModel.sci(x.impliedRate())));
    double loo = worstError(r.heldOut().stream().map(Run::looError).toList());
    double shipped = worstError(r.heldOut().stream().map(Run::error).toList());
    out.printf(
        Locale.ROOT,
        "- `cpuAdam.deepspeed` fitted to all %d offload runs (median of %s): %s parameters/s per"
            + " host, against %s shipped. Held out, one run at a time, the refitted rate errs by"
            + " at worst %s where the shipped rate errs by %s on the same runs.%n",
        rates.size(),
        String.join(", ", rates),
        StepModel.sci(r.fittedRate()),
        StepModel.sci(r.shippedRate()),
        pct(loo),
        pct(shipped));
    out.println();
    out.println(
        "| seed run | measured s | predicted, shipped rate s | err | with the public rate s | err"
            + " |");
    out.println("|---|---|---|---|---|---|");
    int moved = 0;
    for (Seed s : r.seeds()) {
      out.printf(
          Locale.ROOT,
          "| %s | %.0f | %.0f | %s | %.0f | %s |%n",
          s.name(),
          s.measuredS(),
          s.shippedS(),
          pct(s.shippedS() / s.measuredS() - 1),
          s.fittedS(),
          pct(s.fittedS() / s.measuredS() - 1));
      moved += Math.abs(s.fittedS() - s.shippedS()) > 0.5 ? 1 : 0;
    }
    out.println();
    double gapLo = seedGapsS.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    double gapHi = seedGapsS.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    int fewest =
        r.runs().stream()
            .filter(x -> x.impliedRate() != null && x.threads() != null)
            .mapToInt(Run::threads)
            .min()
            .orElse(0);
    long paramRuns = r.runs().stream().filter(Run::paramsOffloaded).count();
    out.printf(
        Locale.ROOT,
        "- The public rate moves %d of the %d seed jobs: a per-host rate binds only where a host's"
            + " processes have threads enough to reach it, and torchrun leaves one thread to each"
            + " of 4 processes in a pod, so those seeds' CPU steps are priced by their threads;"
            + " the public offload runs had %d threads per process or more, so none of them"
            + " measured that regime. The seeds' gap of %s-%s s per step (section 5) stays: %s"
            + " `cpuAdam.deepspeed` keeps its shipped value: %d of the %d implied rates come from"
            + " one host type.%n%n",
        moved,
        r.seeds().size(),
        fewest,
        StepModel.num3(gapLo),
        StepModel.num3(gapHi),
        paramRuns == 0
            ? "no public run offloads parameters (ZeRO-3 `offload_param`), the seeds' regime, so"
                + " these data support no term for its host side and none is added (ZeRO-3's"
                + " module hooks, which these rows include, are fitted to one run's timers in the"
                + " next section)."
            : paramRuns
                + " public run(s) offload parameters too (rows above); no term is added for the"
                + " gap.",
        sameHost(r),
        rates.size());
  }

  /** Implied rates from the host type with the most of them. */
  private static long sameHost(Report r) {
    return r.runs().stream()
        .filter(x -> x.impliedRate() != null)
        .collect(
            java.util.stream.Collectors.groupingBy(
                Run::instance, java.util.stream.Collectors.counting()))
        .values()
        .stream()
        .mapToLong(Long::longValue)
        .max()
        .orElse(0);
  }

  /** Pairs of one instance type, slower over faster by measured: {measured, predicted} ratios. */
  static List<double[]> pairs(List<Seed> seeds) {
    List<double[]> out = new ArrayList<>();
    for (Seed a : seeds) {
      for (Seed b : seeds) {
        if (a != b && a.instance().equals(b.instance()) && b.measuredS() < a.measuredS()) {
          out.add(new double[] {a.measuredS() / b.measuredS(), a.fittedS() / b.fittedS()});
        }
      }
    }
    return out;
  }
}
