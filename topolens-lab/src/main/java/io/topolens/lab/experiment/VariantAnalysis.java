package io.topolens.lab.experiment;

import io.topolens.bench.BenchFile;
import io.topolens.bench.BenchRow;
import io.topolens.bench.BenchRun;
import io.topolens.bench.ProbeLaunch;
import io.topolens.bench.ProbeLaunchReader;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.diagnose.Diagnoser;
import io.topolens.diagnose.Diagnosis;
import io.topolens.diagnose.Finding;
import io.topolens.experiment.Experiment;
import io.topolens.inputs.Inputs;
import io.topolens.inputs.InputsReader;
import io.topolens.model.Cluster;
import io.topolens.model.Communicator;
import io.topolens.model.Edge;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.NcclLogReader;
import io.topolens.present.TextReport;
import io.topolens.steps.StepTimes;
import io.topolens.verdict.BenchAnalysis;
import io.topolens.verdict.BenchVerdict;
import io.topolens.verdict.Expectations;
import io.topolens.verdict.Hardware;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads what one variant left behind the way {@code diagnose} and {@code bench} read any input:
 * every rank's output through {@link InputsReader}, judged by the standard rules and the bench
 * verdicts; the peak busbw of each collective the probe measured; the paths NCCL printed; the step
 * times of the training logs ({@link StepTimes}, the reader diagnose uses). Writes the diagnosis as
 * text beside the logs ({@code diagnosis.txt}).
 */
public final class VariantAnalysis {

  /** The diagnosis written into each variant's folder. */
  public static final String DIAGNOSIS = "diagnosis.txt";

  private final HardwareCatalog catalog;
  private final Hardware hardware;

  public VariantAnalysis(HardwareCatalog catalog, Hardware hardware) {
    this.catalog = catalog;
    this.hardware = hardware;
  }

  /**
   * What was measured and found, ready to go into results.json.
   *
   * @param problems what could not be read from the logs beyond diagnose's reading (a damaged probe
   *     launch line), one line each ({@code file:line: problem}), for the experiment to say
   */
  public record Measured(
      Map<String, Double> busbw,
      Experiment.Steps stepSeconds,
      List<String> transports,
      List<Experiment.FindingRef> findings,
      ProbeLaunch launch,
      List<String> problems) {

    public Measured {
      problems = List.copyOf(problems);
    }
  }

  /** Reads {@code logs} (the variant's rank outputs) and writes {@code dir/diagnosis.txt}. */
  public Measured analyse(List<Path> logs, Path dir) throws IOException {
    return analyse(logs, dir, Cluster.NONE);
  }

  /**
   * Reads {@code logs} and judges them with the pods and nodes they ran on, as {@code diagnose
   * --job} does, and writes {@code dir/diagnosis.txt}.
   */
  public Measured analyse(List<Path> logs, Path dir, Cluster cluster) throws IOException {
    if (logs.isEmpty()) {
      return new Measured(Map.of(), null, List.of(), List.of(), null, List.of());
    }
    Inputs in =
        new InputsReader(new NcclLogReader()).read(logs.stream().map(Path::toString).toList());
    List<BenchVerdict> verdicts = new BenchAnalysis(new Expectations(catalog)).judge(in, hardware);
    Diagnosis d = Diagnoser.standard().diagnose(in.job(), in, verdicts, cluster, catalog);
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve(DIAGNOSIS)))) {
      new TextReport(false).write(d, w);
    }
    List<Experiment.FindingRef> findings = new ArrayList<>();
    for (Finding f : d.findings()) {
      findings.add(new Experiment.FindingRef(f.id(), f.severity().label()));
    }
    List<Path> trainLogs =
        logs.stream().filter(p -> p.getParent().getFileName().toString().equals("train")).toList();
    List<String> problems = new ArrayList<>();
    ProbeLaunch launch = launch(logs, problems::add);
    return new Measured(
        peakBusBw(in.benches()), steps(trainLogs), transports(in), findings, launch, problems);
  }

  /**
   * The probe's launch micro-benchmark in the first log that holds a whole one, or null. A log
   * whose launch line is damaged (cut short, an op missing) or that cannot be read again is told to
   * {@code problems} ({@code file:line: problem}): diagnose does not read launch lines, so no one
   * else names it.
   */
  static ProbeLaunch launch(List<Path> logs, java.util.function.Consumer<String> problems) {
    for (Path p : logs) {
      try {
        Optional<ProbeLaunch> l = new ProbeLaunchReader().read(p, p.toString());
        if (l.isPresent()) {
          return l.get();
        }
      } catch (InputProblem e) {
        problems.accept(e.getMessage() + " (no launch time read from it)");
      }
    }
    return null;
  }

  /** The training logs' step time (median, min, max over the steps after warm-up), or null. */
  static Experiment.Steps steps(List<Path> trainLogs) {
    if (trainLogs.isEmpty()) {
      return null;
    }
    try {
      return StepTimes.read(trainLogs)
          .map(s -> new Experiment.Steps(s.median(), s.min(), s.max(), s.count()))
          .orElse(null);
    } catch (InputProblem e) {
      return null; // a log that cannot be read again has no step time; diagnose named it
    }
  }

  /** The highest out-of-place or in-place busbw of each collective, GB/s. */
  static Map<String, Double> peakBusBw(List<BenchFile> benches) {
    Map<String, Double> peak = new LinkedHashMap<>();
    for (BenchFile f : benches) {
      for (BenchRun r : f.runs()) {
        if (r.collective() == null) {
          continue;
        }
        String name = r.collective().name().toLowerCase(Locale.ROOT);
        for (BenchRow row : r.rows()) {
          for (var half : new io.topolens.bench.BenchResult[] {row.outOfPlace(), row.inPlace()}) {
            if (half != null && !Double.isNaN(half.busBw())) {
              peak.merge(name, half.busBw(), Math::max);
            }
          }
        }
      }
    }
    return peak;
  }

  /** The paths NCCL printed for its connections, distinct, in the order first seen. */
  static List<String> transports(Inputs in) {
    Set<String> seen = new LinkedHashSet<>();
    for (Communicator c : in.job().communicators()) {
      for (Edge e : c.edges()) {
        seen.add(e.path().raw());
      }
    }
    return List.copyOf(seen);
  }
}
