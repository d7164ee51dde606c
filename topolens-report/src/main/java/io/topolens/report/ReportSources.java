package io.topolens.report;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.diagnose.Diagnoser;
import io.topolens.diagnose.Diagnosis;
import io.topolens.experiment.Experiment;
import io.topolens.inputs.Inputs;
import io.topolens.inputs.InputsReader;
import io.topolens.model.InputFile;
import io.topolens.nccl.InputProblem;
import io.topolens.nccl.NcclLogReader;
import io.topolens.perf.Calibration;
import io.topolens.perf.Comparison;
import io.topolens.perf.ModelPresets;
import io.topolens.perf.PerfConstants;
import io.topolens.perf.RunConfig;
import io.topolens.perf.Scenario;
import io.topolens.perf.ScenarioFile;
import io.topolens.perf.StepModel;
import io.topolens.verdict.BenchAnalysis;
import io.topolens.verdict.BenchVerdict;
import io.topolens.verdict.Expectations;
import io.topolens.verdict.Hardware;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code topolens report} reads: the inputs {@code diagnose} takes (judged the same way, by
 * the same rules and bench verdicts), an experiment folder, and a {@code compare} configuration.
 */
public final class ReportSources {
  private ReportSources() {}

  /**
   * A report and what was read for it.
   *
   * @param report null when nothing drawable was read
   * @param inputs the inputs read as diagnose reads them (their problems included), or null
   */
  public record Read(Report report, Inputs inputs) {}

  /**
   * Reads {@code paths} (files, folders, experiment folders) and {@code config} (or null).
   *
   * @throws InputProblem an experiment's results or the configuration cannot be read
   */
  public static Read read(List<String> paths, Path config, HardwareCatalog catalog, Hardware hw)
      throws InputProblem {
    List<String> plain = new ArrayList<>();
    Experiment experiment = null;
    Report.Builder b = Report.builder("topolens report");
    for (String p : paths) {
      Path dir = Path.of(p);
      if (!p.equals("-") && Experiment.isExperiment(dir)) {
        if (experiment != null) {
          throw new InputProblem(
              p + ": one experiment folder per report (" + experiment.name() + " was given first)");
        }
        experiment = Experiment.read(dir);
        b.input(p).experiment(experiment);
      } else {
        plain.add(p);
      }
    }
    Inputs in = null;
    boolean drawable = experiment != null;
    if (!plain.isEmpty()) {
      in = new InputsReader(new NcclLogReader()).read(plain);
      List<BenchVerdict> verdicts = new BenchAnalysis(new Expectations(catalog)).judge(in, hw);
      long nccl = in.job().inputs().stream().mapToLong(InputFile::ncclLines).sum();
      boolean beside = !in.smi().isEmpty() || !in.topologies().isEmpty() || !in.benches().isEmpty();
      b.inputs(in).bench(verdicts);
      if (nccl > 0 || beside) {
        Diagnosis d = Diagnoser.standard().diagnose(in.job(), in, verdicts);
        b.diagnosis(d);
        drawable = true;
      }
    }
    if (config != null) {
      b.input(config.toString());
      List<Scenario> scenarios = new ArrayList<>();
      List<RunConfig.Measured> measured = new ArrayList<>();
      for (RunConfig run : ScenarioFile.read(config)) {
        scenarios.add(
            run.toScenario(catalog, ModelPresets.bundled(), config.toString()).scenario());
        measured.add(run.measured());
      }
      StepModel model = new StepModel(catalog, PerfConstants.bundled(), Calibration.none());
      b.comparison(Comparison.of(model, scenarios), measured);
      drawable = true;
    }
    return new Read(drawable ? b.build() : null, in);
  }
}
