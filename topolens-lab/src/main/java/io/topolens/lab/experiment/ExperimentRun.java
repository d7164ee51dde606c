package io.topolens.lab.experiment;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs an experiment's variants one after another through a {@link VariantRunner}, reads each with
 * {@link VariantAnalysis}, and keeps {@code DIR/results.json} up to date after every variant, so
 * nothing finished is lost when a later one fails or the user presses Ctrl-C. Each finished variant
 * leaves {@code variant.json} in its folder: the mark {@code --resume} looks for.
 *
 * <p>Layout of DIR: {@code results.json}, {@code variants/NAME/} with {@code probe/} and {@code
 * train/} (every rank's {@code rank-N.out}/{@code .err}), {@code diagnosis.txt}, {@code
 * variant.json}.
 */
public final class ExperimentRun {

  /** The mark a finished variant leaves in its folder. */
  public static final String MARK = "variant.json";

  private final ExperimentSpec spec;
  private final VariantRunner runner;
  private final VariantAnalysis analysis;
  private final HardwareCatalog catalog;
  private final Path out;
  private final boolean resume;
  private final PrintWriter err;
  private final List<Experiment.Variant> done = new ArrayList<>();
  private List<Variant> planned = List.of();
  private volatile boolean interrupted;

  public ExperimentRun(
      ExperimentSpec spec,
      VariantRunner runner,
      VariantAnalysis analysis,
      HardwareCatalog catalog,
      Path out,
      boolean resume,
      PrintWriter err) {
    this.spec = spec;
    this.runner = runner;
    this.analysis = analysis;
    this.catalog = catalog;
    this.out = out;
    this.resume = resume;
    this.err = err;
  }

  /** Runs every variant (skipping finished ones under {@code --resume}) and returns the results. */
  public Experiment run() throws IOException, InterruptedException {
    Files.createDirectories(out.resolve("variants"));
    planned = spec.variants();
    int n = planned.size();
    for (int i = 0; i < n && !interrupted; i++) {
      Variant v = planned.get(i);
      String tag = "[" + (i + 1) + "/" + n + "] " + v.name();
      Path dir = out.resolve("variants").resolve(v.dirName());
      Experiment.Variant before = resume ? finished(dir) : null;
      if (before != null) {
        say(tag + ": finished before, kept (--resume)");
        record(before);
        continue;
      }
      var skip = runner.skipReason(v);
      if (skip.isPresent()) {
        say(tag + ": skipped: " + skip.get());
        record(entry(v, Experiment.Variant.SKIPPED, skip.get(), null, null));
        continue;
      }
      clean(dir);
      Files.createDirectories(dir);
      long start = System.nanoTime();
      say(tag + ": " + v.layout() + " (" + v.ranks() + " ranks) starts");
      VariantRunner.VariantRun r = runner.run(v, dir, what -> say(tag + ": " + what));
      double seconds = (System.nanoTime() - start) / 1e9;
      if (interrupted) {
        break;
      }
      say(tag + ": reading " + r.logs().size() + " logs");
      VariantAnalysis.Measured m = analysis.analyse(r.logs(), dir, r.cluster());
      m.problems().forEach(p -> say(tag + ": " + p));
      Experiment.Variant e =
          entry(
              v,
              r.ok() ? Experiment.Variant.OK : Experiment.Variant.FAILED,
              r.failure(),
              m,
              seconds);
      Experiment.writeVariant(e, dir.resolve(MARK));
      record(e);
      say(tag + ": " + summary(e));
    }
    if (!interrupted && !spec.predict().isEmpty()) {
      say("predicting each variant's step");
      synchronized (this) {
        Experiment p = Predictions.apply(spec, results(), catalog, this::say);
        done.clear();
        done.addAll(p.variants());
      }
    }
    return results();
  }

  /**
   * Ctrl-C: stops the running variant, marks the variants that did not finish as skipped and writes
   * results.json; for a shutdown hook.
   */
  public void interrupt() {
    interrupted = true;
    runner.stop();
    try {
      results();
      say(
          "interrupted: the running variant was stopped; "
              + done.size()
              + " finished variant(s) kept in "
              + out.resolve(Experiment.FILE)
              + " (--resume goes on)");
    } catch (IOException e) {
      err.println("topolens: cannot write " + out.resolve(Experiment.FILE) + ": " + e.getMessage());
    }
    err.flush();
  }

  public boolean interrupted() {
    return interrupted;
  }

  /** Writes results.json with every variant: finished, skipped, and those not run yet. */
  private synchronized Experiment results() throws IOException {
    List<Experiment.Variant> all = new ArrayList<>(done);
    for (int i = done.size(); i < planned.size(); i++) {
      all.add(
          entry(
              planned.get(i),
              Experiment.Variant.SKIPPED,
              interrupted ? "interrupted" : "not run",
              null,
              null));
    }
    Experiment e = new Experiment(spec.name(), all);
    if (!all.isEmpty()) {
      e.write(out);
    }
    return e;
  }

  private synchronized void record(Experiment.Variant v) throws IOException {
    done.add(v);
    results();
  }

  private Experiment.Variant finished(Path dir) {
    Path mark = dir.resolve(MARK);
    if (!Files.isRegularFile(mark)) {
      return null;
    }
    try {
      Experiment.Variant v = Experiment.readVariant(mark);
      return v.ok() ? v : null;
    } catch (IOException e) {
      return null;
    }
  }

  private Experiment.Variant entry(
      Variant v, String status, String reason, VariantAnalysis.Measured m, Double seconds) {
    return new Experiment.Variant(
        v.name(),
        status,
        v.layout().toString(),
        v.ranks(),
        "variants/" + v.dirName(),
        m == null ? Map.of() : m.busbw(),
        m == null ? null : m.stepSeconds(),
        m == null ? List.of() : m.transports(),
        m == null ? List.of() : m.findings(),
        v.nodes(),
        v.network(),
        v.offload(),
        v.env(),
        v.repeat(),
        reason,
        seconds == null ? null : Math.round(seconds * 10) / 10.0,
        null,
        null,
        null,
        null,
        null,
        m == null ? null : m.launch());
  }

  private static String summary(Experiment.Variant e) {
    StringBuilder s = new StringBuilder(e.status());
    s.append(String.format(Locale.ROOT, " in %.1f s", e.elapsedSeconds()));
    if (!e.busbw().isEmpty()) {
      s.append(" (busbw");
      e.busbw().forEach((k, v) -> s.append(String.format(Locale.ROOT, " %s %.2f GB/s", k, v)));
      s.append(")");
    }
    if (e.reason() != null) {
      s.append(": ").append(e.reason());
    }
    return s.toString();
  }

  private void say(String line) {
    err.println("topolens: " + line);
    err.flush();
  }

  /** Removes what an unfinished earlier attempt left in the variant's folder. */
  private static void clean(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
