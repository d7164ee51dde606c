package io.topolens.cli;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.ModelPresets;
import io.topolens.perf.Prediction;
import io.topolens.perf.RunConfig;
import io.topolens.perf.StepModel;
import io.topolens.present.PerfJson;
import io.topolens.present.PerfText;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code topolens predict}: one configuration's step and job time, breakdown and bottleneck. */
@Command(
    name = "predict",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Predicts the step and job time of a data-parallel training job on a topology, with a"
          + " breakdown (compute, exposed communication per collective, offload copies, CPU"
          + " optimizer), the bottleneck in one sentence and why."
    })
final class PredictCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin JobOptions job;

  @Option(names = "--instance", description = "Instance type from the catalog, e.g. p4d.24xlarge.")
  String instance;

  @Option(
      names = "--layout",
      paramLabel = "PODSxGPUS",
      description = "Pods per node x GPUs per pod, e.g. 1x4 (default: one pod with every GPU).")
  String layout;

  @Option(names = "--network", description = "efa, ib or eni (TCP) between pods.")
  String network;

  @Option(names = "--zero", description = "ZeRO stage 0-3 (0 = DDP).")
  String zero;

  @Option(names = "--offload", description = "none (default), optimizer or cpu (parameters too).")
  String offload;

  @Option(
      names = "--run",
      paramLabel = "NAME",
      description = "Which run of a --config file with several.")
  String run;

  @Option(
      names = "--deepspeed-timers",
      paramLabel = "LOG",
      description =
          "A log of this job with DeepSpeed's wall_clock_breakdown timers: fit the framework time"
              + " per micro-step and the CPU optimizer rate to it, and say so.")
  java.nio.file.Path deepspeedTimers;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    try {
      HardwareCatalog catalog = job.catalog();
      RunConfig base = pick(job.fileRuns());
      Map<String, Object> values = job.values();
      JobOptions.put(values, "instance", instance);
      JobOptions.put(values, "layout", layout);
      JobOptions.put(values, "network", network);
      JobOptions.put(values, "zero", zero);
      JobOptions.put(values, "offload", offload);
      RunConfig cfg = base.merge(RunConfig.fromMap(values, "command line"));
      String where = job.config == null ? "command line" : job.config.toString();
      RunConfig.Checked checked = cfg.toScenario(catalog, ModelPresets.bundled(), where);
      StepModel model =
          new StepModel(
              catalog, io.topolens.perf.PerfConstants.bundled(), job.calibration(catalog));
      io.topolens.perf.Scenario scenario = checked.scenario();
      List<String> fitted = List.of();
      if (deepspeedTimers != null) {
        io.topolens.perf.DeepSpeedFit f =
            io.topolens.perf.DeepSpeedFit.fit(
                model,
                scenario,
                io.topolens.perf.DeepSpeedTimers.read(deepspeedTimers, deepspeedTimers.toString()));
        scenario = f.apply(scenario);
        fitted = f.fitted();
        // the run's own framework time stands in for ZeRO-3's module hooks
        model = model.withoutZero3Hooks();
      }
      Prediction p = model.predict(scenario).withFitted(fitted).withDefaults(checked.defaulted());
      PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
      if (job.format == Format.json) {
        new PerfJson().write(p, out);
        out.println();
        out.flush();
      } else {
        new PerfText(job.verbose).write(p, out);
      }
      return 0;
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
  }

  private RunConfig pick(List<RunConfig> runs) throws InputProblem {
    if (run != null) {
      return runs.stream()
          .filter(r -> run.equals(r.name()))
          .findFirst()
          .orElseThrow(
              () ->
                  new InputProblem(
                      job.config
                          + ": no run named \""
                          + run
                          + "\" (runs: "
                          + String.join(
                              ", ", runs.stream().map(r -> String.valueOf(r.name())).toList())
                          + ")"));
    }
    if (runs.size() > 1) {
      throw new InputProblem(
          job.config
              + " has "
              + runs.size()
              + " runs: pick one with --run NAME, or compare them"
              + " with topolens compare --config "
              + job.config);
    }
    return runs.get(0);
  }
}
