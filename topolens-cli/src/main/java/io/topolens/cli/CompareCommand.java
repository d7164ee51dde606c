package io.topolens.cli;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.Comparison;
import io.topolens.perf.ModelPresets;
import io.topolens.perf.PerfConstants;
import io.topolens.perf.RunConfig;
import io.topolens.perf.Scenario;
import io.topolens.perf.StepModel;
import io.topolens.present.PerfJson;
import io.topolens.present.PerfText;
import io.topolens.report.Report;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code topolens compare}: several configurations side by side, from a YAML file's runs and/or
 * every combination of the list options.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {
      "Predicts several configurations (the runs of --config, times every combination of"
          + " --instance, --layouts, --network, --zero and --offload) and prints step and job time,"
          + " ratio to the fastest and why each is slower."
    })
final class CompareCommand implements Callable<Integer> {

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin JobOptions job;

  @Mixin HtmlOption html = new HtmlOption();

  @Option(names = "--instance", split = ",", description = "Instance types, comma-separated.")
  List<String> instances = new ArrayList<>();

  @Option(
      names = {"--layouts", "--layout"},
      split = ",",
      paramLabel = "PODSxGPUS",
      description = "Layouts per node, e.g. 1x4,4x1.")
  List<String> layouts = new ArrayList<>();

  @Option(names = "--network", split = ",", description = "Networks, e.g. efa,eni.")
  List<String> networks = new ArrayList<>();

  @Option(names = "--zero", split = ",", description = "ZeRO stages, e.g. 2,3.")
  List<String> zeros = new ArrayList<>();

  @Option(names = "--offload", split = ",", description = "Offload settings, e.g. none,cpu.")
  List<String> offloads = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    try {
      HardwareCatalog catalog = job.catalog();
      RunConfig common = RunConfig.fromMap(job.values(), "command line");
      List<Map<String, Object>> axes = axes();
      String where = job.config == null ? "command line" : job.config.toString();
      List<Scenario> scenarios = new ArrayList<>();
      List<RunConfig.Measured> measured = new ArrayList<>();
      for (RunConfig run : job.fileRuns()) {
        for (Map<String, Object> axis : axes) {
          RunConfig cfg = run.merge(common).merge(RunConfig.fromMap(axis, "command line"));
          if (axes.size() > 1 || cfg.name() == null) {
            String label = label(axis);
            cfg =
                cfg.named(
                    cfg.name() == null ? null : cfg.name() + (label.isEmpty() ? "" : " " + label));
          }
          scenarios.add(cfg.toScenario(catalog, ModelPresets.bundled(), where).scenario());
          measured.add(cfg.measured());
        }
      }
      StepModel model = new StepModel(catalog, PerfConstants.bundled(), job.calibration(catalog));
      Comparison c = Comparison.of(model, scenarios);
      if (html.wanted()
          && !html.write(
              Report.builder("topolens compare").input(where).comparison(c, measured), err)) {
        return 2;
      }
      PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
      if (job.format == Format.json) {
        new PerfJson().write(c, out);
        out.println();
        out.flush();
      } else {
        new PerfText(job.verbose).write(c, out);
      }
      return 0;
    } catch (InputProblem e) {
      err.println("topolens: " + e.getMessage());
      return 2;
    }
  }

  /** Every combination of the list options, as RunConfig keys (one empty map when none). */
  private List<Map<String, Object>> axes() {
    List<Map<String, Object>> out = new ArrayList<>();
    out.add(new LinkedHashMap<>());
    out = expand(out, "instance", instances);
    out = expand(out, "layout", layouts);
    out = expand(out, "network", networks);
    out = expand(out, "zero", zeros);
    out = expand(out, "offload", offloads);
    return out;
  }

  private static List<Map<String, Object>> expand(
      List<Map<String, Object>> in, String key, List<String> values) {
    List<String> clean =
        values.stream().map(String::trim).filter(v -> !v.isEmpty()).distinct().toList();
    if (clean.isEmpty()) {
      return in;
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> m : in) {
      for (String v : clean) {
        Map<String, Object> n = new LinkedHashMap<>(m);
        n.put(key, v);
        out.add(n);
      }
    }
    return out;
  }

  private static String label(Map<String, Object> axis) {
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, Object> e : axis.entrySet()) {
      parts.add(
          switch (e.getKey()) {
            case "zero" -> "zero" + e.getValue();
            case "offload" -> "offload " + e.getValue();
            default -> String.valueOf(e.getValue());
          });
    }
    return String.join(" ", Arrays.asList(parts.toArray(new String[0])));
  }
}
