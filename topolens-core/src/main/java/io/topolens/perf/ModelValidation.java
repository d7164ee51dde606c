package io.topolens.perf;

import io.topolens.catalog.GpuSpec;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.catalog.Source;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.ValidationReport.BenchPoint;
import io.topolens.perf.ValidationReport.Fitted;
import io.topolens.perf.ValidationReport.Needed;
import io.topolens.perf.ValidationReport.RatioCheck;
import io.topolens.perf.ValidationReport.StepCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.stream.Stream;

/**
 * Runs the model against the measured data (docs/model-validation.md): the H200 fixtures'
 * nccl-tests outputs and FSDP step times, and the seeds' job times from {@code
 * examples/perf/seed-runs.yaml}. Parameters fitted to a measurement are fitted to one point each,
 * named in the report, and used to predict the others.
 */
public final class ModelValidation {
  /** Sizes of at least this are reported (1 MiB). */
  public static final long MIN_REPORTED = 1L << 20;

  private final HardwareCatalog catalog;
  private final PerfConstants k;
  private final Calibrator calibrator;

  public ModelValidation(HardwareCatalog catalog, PerfConstants constants, Calibrator calibrator) {
    this.catalog = catalog;
    this.k = constants;
    this.calibrator = calibrator;
  }

  public static ModelValidation standard() {
    return new ModelValidation(
        HardwareCatalog.builtIn(), PerfConstants.bundled(), Calibrator.standard());
  }

  /**
   * Runs everything.
   *
   * @param fixtures the h200x4 fixtures folder (nccl-tests logs and {@code fsdp/})
   * @param examples the {@code examples/perf} folder (seed-runs.yaml, h200-fsdp.yaml,
   *     h200x4-catalog.json)
   * @param oneGpu one-GPU measurements (bench/fsdp-step.py, cpu-adam.py, gpu-micro.py output) and
   *     the host-threads sweep (bench/host-threads.py), files or folders; none to leave them out
   */
  public ValidationReport run(Path fixtures, Path examples, List<Path> oneGpu) throws InputProblem {
    return run(fixtures, examples, oneGpu, List.of(), List.of());
  }

  /**
   * As {@link #run(Path, Path, List)}, with experiments' results.json files each judged against the
   * runs of the same names in the configuration at the same position of {@code configs}.
   */
  public ValidationReport run(
      Path fixtures, Path examples, List<Path> oneGpu, List<Path> experiments, List<Path> configs)
      throws InputProblem {
    return run(fixtures, examples, oneGpu, experiments, configs, List.of(), List.of());
  }

  /**
   * As {@link #run(Path, Path, List, List, List)}, with folders of repeated runs: every
   * results.json under each folder of {@code spreadDirs} is one run of the same experiment on one
   * machine, judged against the configuration at the same position of {@code spreadConfigs}.
   */
  public ValidationReport run(
      Path fixtures,
      Path examples,
      List<Path> oneGpu,
      List<Path> experiments,
      List<Path> configs,
      List<Path> spreadDirs,
      List<Path> spreadConfigs)
      throws InputProblem {
    return run(
        fixtures,
        examples,
        oneGpu,
        experiments,
        configs,
        spreadDirs,
        spreadConfigs,
        List.of(),
        List.of());
  }

  /**
   * As {@link #run(Path, Path, List, List, List, List, List)}, with experiments whose probes
   * measured the host's launch speed ({@code launchResults}, each judged against the configuration
   * at the same position of {@code launchConfigs}): each measured step predicted with it and
   * without it ({@link LaunchChecks}).
   */
  public ValidationReport run(
      Path fixtures,
      Path examples,
      List<Path> oneGpu,
      List<Path> experiments,
      List<Path> configs,
      List<Path> spreadDirs,
      List<Path> spreadConfigs,
      List<Path> launchResults,
      List<Path> launchConfigs)
      throws InputProblem {
    if (launchResults.size() != launchConfigs.size()) {
      throw new InputProblem(
          launchResults.size()
              + " experiments with the probe's launch speed but "
              + launchConfigs.size()
              + " configurations: give one --launch-config per --launch, in the same order");
    }
    List<LaunchChecks.Check> launch = new ArrayList<>();
    for (int i = 0; i < launchResults.size(); i++) {
      launch.addAll(new LaunchChecks(catalog, k).of(launchResults.get(i), launchConfigs.get(i)));
    }
    if (spreadDirs.size() != spreadConfigs.size()) {
      throw new InputProblem(
          spreadDirs.size()
              + " folders of repeated runs but "
              + spreadConfigs.size()
              + " configurations: give one --repeats-config per --repeats, in the same order");
    }
    if (experiments.size() != configs.size()) {
      throw new InputProblem(
          experiments.size()
              + " experiment results but "
              + configs.size()
              + " configurations: give one --experiment-config per --experiment, in the same"
              + " order");
    }
    List<String> skipped = new ArrayList<>();
    List<BenchSample> samples = benchSamples(fixtures, skipped);
    Calibration all = Calibrations.fit(samples, calibrator);
    List<BenchPoint> bench = benchPoints(samples, all);

    BenchLines.Read benchLines = oneGpu.isEmpty() ? null : BenchLines.read(oneGpu);
    OneGpuValidation.Report one =
        benchLines == null || benchLines.files().isEmpty() && !benchLines.threadRuns().isEmpty()
            ? null
            : new OneGpuValidation(catalog, k)
                .run(benchLines, String.join(", ", oneGpu.stream().map(Path::toString).toList()));
    HostThreadsSweep sweep = benchLines == null ? null : HostThreadsSweep.of(benchLines);

    HardwareCatalog h200 = catalog.with(examples.resolve("h200x4-catalog.json"));
    List<StepCheck> steps = new ArrayList<>();
    List<RatioCheck> ratios = new ArrayList<>();
    List<String> explanations = new ArrayList<>();
    fsdp(fixtures, examples, h200, all, steps, ratios, explanations);
    List<StepCheck> layoutSteps = new ArrayList<>();
    List<RatioCheck> layoutRatios = new ArrayList<>();
    Fitted flowExponent = layouts(examples, h200, all, layoutSteps, layoutRatios);
    // section 3's fastest step (one pod over NVLink; section 4's 1-pod step is the same run)
    // without the world-size term
    ModelValidation noPeers = new ModelValidation(catalog, withoutPeers(), calibrator);
    List<StepCheck> steps0 = new ArrayList<>();
    noPeers.fsdp(fixtures, examples, h200, all, steps0, new ArrayList<>(), new ArrayList<>());
    List<ValidationReport.OnePodStep> onePod = new ArrayList<>();
    onePod.addAll(
        fastest(
            fixtures.resolve("fsdp") + " (section 3)",
            examples.resolve("h200-fsdp.yaml"),
            h200,
            steps,
            steps0));
    onePod.addAll(onePod(experiments, configs));

    List<StepCheck> seeds = new ArrayList<>();
    List<RatioCheck> seedRatios = new ArrayList<>();
    List<Needed> needed = new ArrayList<>();
    List<String> seedNotes = new ArrayList<>();
    List<ValidationReport.SeedTerms> seedTerms = new ArrayList<>();
    seeds(examples, seeds, seedRatios, needed, seedNotes, seedTerms, explanations);
    return new ValidationReport(
        one,
        bench,
        all.fits(),
        skipped,
        steps,
        ratios,
        layoutSteps,
        layoutRatios,
        seeds,
        seedRatios,
        needed,
        seedNotes,
        seedTerms,
        explanations,
        experimentReports(experiments, configs),
        sweep,
        spreads(spreadDirs, spreadConfigs),
        flowExponent,
        onePod,
        launch,
        publicOffload(examples),
        zero3Hooks(examples));
  }

  /**
   * {@code zero3.moduleHookS} fitted to the public runs with timers of {@code
   * examples/public-deepspeed-runs.yaml}, and the seeds with and without it; none without the file.
   */
  private Zero3HookFit.Report zero3Hooks(Path examples) throws InputProblem {
    Path runs = examples.resolve("public-deepspeed-runs.yaml");
    if (!Files.exists(runs)) {
      return null;
    }
    return new Zero3HookFit(catalog, k)
        .of(
            runs,
            examples.resolve("public-deepspeed-catalog.json"),
            examples.resolve("seed-runs.yaml"));
  }

  /**
   * The public DeepSpeed ZeRO-Offload runs of {@code examples/public-deepspeed-runs.yaml} (hosts in
   * public-deepspeed-catalog.json), and the seeds with the rate they support; none without the
   * file.
   */
  private PublicOffloadRuns.Report publicOffload(Path examples) throws InputProblem {
    Path runs = examples.resolve("public-deepspeed-runs.yaml");
    if (!Files.exists(runs)) {
      return null;
    }
    return new PublicOffloadRuns(catalog, k)
        .of(
            runs,
            examples.resolve("public-deepspeed-catalog.json"),
            examples.resolve("seed-runs.yaml"));
  }

  /** The constants with {@code compute.launchPerLayerS} alone: no world-size term. */
  private PerfConstants withoutPeers() {
    return k.with(
        Map.of(LaunchPeers.SHARE, 0.0),
        new Source(
            "NO-PEERS", "compute.launchPerPeerShare set to 0 by topolens validate-model", ""));
  }

  /**
   * The step predicted fastest among {@code with} (a run without offload: one pod over NVLink),
   * with its prediction in {@code without}; none where the lists hold no such pair.
   */
  private List<ValidationReport.OnePodStep> fastest(
      String where, Path config, HardwareCatalog cat, List<StepCheck> with, List<StepCheck> without)
      throws InputProblem {
    StepCheck a =
        with.stream().min(java.util.Comparator.comparingDouble(StepCheck::predicted)).orElse(null);
    if (a == null) {
      return List.of();
    }
    StepCheck b = without.stream().filter(c -> c.name().equals(a.name())).findFirst().orElse(null);
    if (b == null) {
      return List.of();
    }
    return List.of(
        new ValidationReport.OnePodStep(
            where,
            a.name(),
            ranks(config, cat, a.name()),
            a.measured(),
            a.predicted(),
            b.predicted()));
  }

  /**
   * Each experiment's reference step (the variant the model predicts fastest without offload, its
   * one pod over NVLink) with {@code compute.launchPerPeerShare} as shipped and with it 0.
   */
  private List<ValidationReport.OnePodStep> onePod(List<Path> experiments, List<Path> configs)
      throws InputProblem {
    PerfConstants without = withoutPeers();
    List<ValidationReport.OnePodStep> out = new ArrayList<>();
    for (int i = 0; i < experiments.size(); i++) {
      ExperimentValidation.Report with =
          new ExperimentValidation(catalog, k).run(experiments.get(i), configs.get(i));
      ExperimentValidation.Report none =
          new ExperimentValidation(catalog, without).run(experiments.get(i), configs.get(i));
      if (with.stepCalibration() == null) {
        continue;
      }
      String ref = with.stepCalibration().reference();
      StepCheck a = step(with, ref);
      StepCheck b = step(none, ref);
      if (a != null && b != null) {
        out.add(
            new ValidationReport.OnePodStep(
                with.results(),
                ref,
                ranks(configs.get(i), catalog, ref),
                a.measured(),
                a.predicted(),
                b.predicted()));
      }
    }
    return out;
  }

  private static StepCheck step(ExperimentValidation.Report r, String name) {
    return r.steps().stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
  }

  private static int ranks(Path config, HardwareCatalog cat, String name) throws InputProblem {
    for (RunConfig rc : ScenarioFile.read(config)) {
      if (rc.name().equals(name)) {
        return rc.toScenario(cat, ModelPresets.bundled(), config.toString())
            .scenario()
            .cluster()
            .ranks();
      }
    }
    return 0;
  }

  private List<RunSpread> spreads(List<Path> dirs, List<Path> configs) throws InputProblem {
    List<RunSpread> out = new ArrayList<>();
    for (int i = 0; i < dirs.size(); i++) {
      List<Path> files;
      try (Stream<Path> s = Files.walk(dirs.get(i))) {
        files = s.filter(p -> p.getFileName().toString().equals("results.json")).sorted().toList();
      } catch (java.io.IOException | java.io.UncheckedIOException e) {
        throw new InputProblem(dirs.get(i) + ": cannot read the folder: " + e.getMessage());
      }
      if (files.isEmpty()) {
        throw new InputProblem(dirs.get(i) + ": no results.json under it (topolens experiment)");
      }
      out.add(
          RunSpread.of(
              dirs.get(i).toString(),
              experimentReports(
                  files, java.util.Collections.nCopies(files.size(), configs.get(i)))));
    }
    return out;
  }

  private List<ExperimentValidation.Report> experimentReports(
      List<Path> experiments, List<Path> configs) throws InputProblem {
    List<ExperimentValidation.Report> out = new ArrayList<>();
    for (int i = 0; i < experiments.size(); i++) {
      out.add(new ExperimentValidation(catalog, k).run(experiments.get(i), configs.get(i)));
    }
    return out;
  }

  // ---- 1. nccl-tests ----

  private List<BenchSample> benchSamples(Path dir, List<String> skipped) throws InputProblem {
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
    } catch (IOException e) {
      throw new InputProblem(dir + ": cannot list: " + e.getMessage());
    }
    BenchSamples reader = new BenchSamples(catalog);
    List<BenchSample> out = new ArrayList<>();
    for (Path f : files) {
      String name = f.getFileName().toString();
      try {
        out.add(reader.read(f, name, null));
      } catch (InputProblem e) {
        skipped.add(e.getMessage());
      }
    }
    if (out.isEmpty()) {
      throw new InputProblem(dir + ": no nccl-tests outputs with NCCL_DEBUG=INFO lines");
    }
    return out;
  }

  private List<BenchPoint> benchPoints(List<BenchSample> samples, Calibration all)
      throws InputProblem {
    LinkPriors priors = new LinkPriors(k);
    BenchModel model = new BenchModel(new CollectiveModel(k));
    List<BenchPoint> out = new ArrayList<>();
    for (BenchSample s : samples) {
      GpuSpec gpu =
          catalog
              .gpuByName(s.gpu())
              .orElseThrow(() -> new InputProblem(s.file() + ": unknown GPU " + s.gpu()));
      GpuArch arch = GpuArch.of(gpu.computeCapability());
      Link prior =
          switch (s.path()) {
            case NVLINK -> priors.nvlink(gpu);
            case PCIE -> priors.pcie(gpu);
            case SHM -> priors.shm(gpu);
            default -> priors.socketOnHost();
          };
      Link calibrated = all.apply(prior, 1);
      Link heldOut = null;
      if (s.ringSimple()) {
        List<BenchSample> others =
            samples.stream().filter(o -> o != s && o.path() == s.path() && o.ringSimple()).toList();
        if (!others.isEmpty()) {
          heldOut = Calibrations.fit(others, calibrator).apply(prior, 1);
        }
      }
      for (BenchSample.Row r : s.rows()) {
        if (r.bytes() < MIN_REPORTED) {
          continue;
        }
        CollectiveCost c = model.predict(s, r, calibrated, arch);
        out.add(
            new BenchPoint(
                s.file(),
                s.path(),
                r.op(),
                r.ranks(),
                s.ncclAlgo() == null ? "auto" : s.ncclAlgo(),
                r.bytes(),
                r.outOfPlaceBusBw(),
                model.predict(s, r, prior, arch).measuredStyleBusBw(),
                c.measuredStyleBusBw(),
                heldOut == null ? null : model.predict(s, r, heldOut, arch).measuredStyleBusBw(),
                c.algorithm().name().toLowerCase(Locale.ROOT) + "/" + c.protocol().name(),
                r.evidence().file() + ":" + r.evidence().line()));
      }
    }
    return out;
  }

  // ---- 2. FSDP step times ----

  private void fsdp(
      Path fixtures,
      Path examples,
      HardwareCatalog h200,
      Calibration cal,
      List<StepCheck> steps,
      List<RatioCheck> ratios,
      List<String> explanations)
      throws InputProblem {
    StepModel model = new StepModel(h200, k, cal);
    Path yaml = examples.resolve("h200-fsdp.yaml");
    List<Scenario> runs = new ArrayList<>();
    for (RunConfig rc : ScenarioFile.read(yaml)) {
      runs.add(rc.toScenario(h200, ModelPresets.bundled(), yaml.toString()).scenario());
    }
    Map<String, MeasuredStep> byTag = stepLogs(fixtures.resolve("fsdp"));
    List<Double> measured = new ArrayList<>();
    List<Prediction> predicted = new ArrayList<>();
    for (Scenario s : runs) {
      MeasuredStep m = byTag.get(s.name());
      if (m == null) {
        throw new InputProblem(
            yaml
                + ": run "
                + s.name()
                + " has no log with \"tag\": \""
                + s.name()
                + "\" under "
                + fixtures.resolve("fsdp"));
      }
      Prediction p = model.predict(s);
      measured.add(m.stepS());
      predicted.add(p);
      steps.add(
          new StepCheck(
              s.name(),
              m.stepS(),
              p.stepS(),
              null,
              m.evidence().file() + ":" + m.evidence().line()));
    }
    ratios.addAll(pairRatios(runs, measured, predicted));
    offloadExplanation(runs, measured, predicted, explanations);
  }

  /**
   * The timing lines of every log under {@code dir}, by their tag (the file names do not count).
   */
  private static Map<String, MeasuredStep> stepLogs(Path dir) throws InputProblem {
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new InputProblem(dir + ": cannot list: " + e.getMessage());
    }
    Map<String, MeasuredStep> out = new LinkedHashMap<>();
    for (Path f : files) {
      MeasuredStep m = MeasuredStep.read(f, dir.getFileName() + "/" + f.getFileName());
      out.put(m.tag(), m);
    }
    return out;
  }

  /**
   * Ratios within groups of runs that are the same job: runs that differ only in the path between
   * their GPUs against the fastest of them (between transports), and runs that differ only in
   * offload against the run without it.
   */
  static List<RatioCheck> pairRatios(
      List<Scenario> runs, List<Double> measured, List<Prediction> predicted) {
    return pairRatios(runs, measured, predicted, null);
  }

  /**
   * As {@link #pairRatios(List, List, List)}, each ratio also from {@code fitted} steps (one per
   * run, null where none) where both of its runs have one.
   */
  static List<RatioCheck> pairRatios(
      List<Scenario> runs, List<Double> measured, List<Prediction> predicted, List<Double> fitted) {
    List<RatioCheck> out = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      int ref = i;
      for (int j = 0; j < runs.size(); j++) {
        if (sameJob(runs.get(i), runs.get(j), false)
            && runs.get(i).cluster().instance().equals(runs.get(j).cluster().instance())
            && measured.get(j) < measured.get(ref)) {
          ref = j;
        }
      }
      if (ref != i) {
        out.add(ratio(runs, measured, predicted, fitted, i, ref, true));
      }
    }
    for (int i = 0; i < runs.size(); i++) {
      for (int j = 0; j < runs.size(); j++) {
        Scenario a = runs.get(i);
        Scenario b = runs.get(j);
        if (a.workload().offload().any()
            && !b.workload().offload().any()
            && sameJob(a, b, true)
            && a.cluster().equals(b.cluster())) {
          out.add(ratio(runs, measured, predicted, fitted, i, j, false));
        }
      }
    }
    return out;
  }

  private static RatioCheck ratio(
      List<Scenario> runs,
      List<Double> measured,
      List<Prediction> predicted,
      List<Double> fitted,
      int a,
      int b,
      boolean transports) {
    Double f =
        fitted == null || fitted.get(a) == null || fitted.get(b) == null
            ? null
            : fitted.get(a) / fitted.get(b);
    return new RatioCheck(
        runs.get(a).name() + " / " + runs.get(b).name(),
        measured.get(a) / measured.get(b),
        predicted.get(a).stepS() / predicted.get(b).stepS(),
        f,
        transports,
        false);
  }

  /** The same model, batch and strategy (and offload, unless {@code ignoreOffload}). */
  static boolean sameJob(Scenario a, Scenario b, boolean ignoreOffload) {
    Workload x = a.workload();
    Workload y = b.workload();
    return x.model().equals(y.model())
        && x.seq() == y.seq()
        && x.microBatch() == y.microBatch()
        && x.gradAccum() == y.gradAccum()
        && x.strategy() == y.strategy()
        && x.precision() == y.precision()
        && x.reduce() == y.reduce()
        && x.checkpointing() == y.checkpointing()
        && (ignoreOffload || x.offload() == y.offload());
  }

  /**
   * Why offload shrinks a slow transport's penalty, from the pair of transports measured both with
   * and without offload whose penalty is largest.
   */
  private static void offloadExplanation(
      List<Scenario> runs,
      List<Double> measured,
      List<Prediction> predicted,
      List<String> explanations) {
    int fast = -1;
    int slow = -1;
    for (int i = 0; i < runs.size(); i++) {
      if (runs.get(i).workload().offload().any() || counterpart(runs, i) < 0) {
        continue;
      }
      if (fast < 0 || measured.get(i) < measured.get(fast)) {
        fast = i;
      }
      if (slow < 0 || measured.get(i) > measured.get(slow)) {
        slow = i;
      }
    }
    if (fast < 0 || slow == fast) {
      return;
    }
    int fastOff = counterpart(runs, fast);
    int slowOff = counterpart(runs, slow);
    Prediction pf = predicted.get(fast);
    Prediction ps = predicted.get(slow);
    Prediction pfo = predicted.get(fastOff);
    Prediction pso = predicted.get(slowOff);
    double offloadS =
        pfo.seconds(Term.Kind.CPU_OPTIMIZER) + pfo.seconds(Term.Kind.OFFLOAD_TRANSFER);
    explanations.add(
        String.format(
            Locale.ROOT,
            "**Why CPU offload shrinks the penalty of a slow transport.** %s adds about the same"
                + " exposed communication to a step with or without offload: %s s without, %s s"
                + " with in the model (measured step differences: %s s and %s s), because %s GB"
                + " per GPU cross %s GB/s either way. Without offload the %s step is %s s, so %s"
                + " makes it %sx slower (measured %sx). With offload every step also spends %s s"
                + " on the CPU optimizer and host copies whatever the transport, so the same extra"
                + " seconds are a smaller share: %sx (measured %sx).",
            ps.group().bottleneck().path().label(),
            StepModel.num3(ps.stepS() - pf.stepS()),
            StepModel.num3(pso.stepS() - pfo.stepS()),
            StepModel.num3(measured.get(slow) - measured.get(fast)),
            StepModel.num3(measured.get(slowOff) - measured.get(fastOff)),
            StepModel.num(Math.round(ps.communicationGB() * 100) / 100.0),
            StepModel.num(Math.round(ps.group().bottleneck().busBwGBps() * 100) / 100.0),
            runs.get(fast).name(),
            StepModel.num3(pf.stepS()),
            runs.get(slow).name(),
            Comparison.ratioText(ps.stepS() / pf.stepS()),
            Comparison.ratioText(measured.get(slow) / measured.get(fast)),
            StepModel.num3(offloadS),
            Comparison.ratioText(pso.stepS() / pfo.stepS()),
            Comparison.ratioText(measured.get(slowOff) / measured.get(fastOff))));
  }

  /** The run that is run {@code i} with offload, on the same cluster, or -1. */
  private static int counterpart(List<Scenario> runs, int i) {
    for (int j = 0; j < runs.size(); j++) {
      if (runs.get(j).workload().offload().any()
          && sameJob(runs.get(j), runs.get(i), true)
          && runs.get(j).cluster().equals(runs.get(i).cluster())) {
        return j;
      }
    }
    return -1;
  }

  // ---- 3b. pods sharing a host ----

  /**
   * The layouts of h200-layouts.yaml, if the examples hold it: predicted with the fixtures'
   * calibration, then with the TCP path fitted to one other layout's measured step (held out).
   */
  private Fitted layouts(
      Path examples,
      HardwareCatalog h200,
      Calibration cal,
      List<StepCheck> steps,
      List<RatioCheck> ratios)
      throws InputProblem {
    Path yaml = examples.resolve("h200-layouts.yaml");
    if (!Files.isRegularFile(yaml)) {
      return null;
    }
    List<Scenario> runs = new ArrayList<>();
    List<Double> measured = new ArrayList<>();
    for (RunConfig rc : ScenarioFile.read(yaml)) {
      if (rc.measured() == null || rc.measured().stepS() == null) {
        throw new InputProblem(yaml + ": run " + rc.name() + " has no measured.stepS");
      }
      runs.add(rc.toScenario(h200, ModelPresets.bundled(), yaml.toString()).scenario());
      measured.add(rc.measured().stepS());
    }
    StepModel model = new StepModel(h200, k, cal);
    List<Prediction> predicted = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      Prediction p = model.predict(runs.get(i));
      predicted.add(p);
      steps.add(
          new StepCheck(runs.get(i).name(), measured.get(i), p.stepS(), null, yaml.toString()));
    }
    PathFit tcp = cal.fit(PathKind.TCP).orElse(null);
    for (RatioCheck r : pairRatios(runs, measured, predicted)) {
      String[] names = r.name().split(" / ");
      int a = indexOf(runs, names[0]);
      int b = indexOf(runs, names[1]);
      Double heldOut = null;
      // fit the TCP path to the one measured step of another layout over TCP, predict this one
      for (int j = 0; j < runs.size() && tcp != null; j++) {
        if (j == a || j == b || predicted.get(j).group().inter() == null) {
          continue;
        }
        int jj = j;
        double target = measured.get(j) / measured.get(b);
        double scale =
            solve(
                x -> ratioWith(model, cal.with(tcp.scaled(x)), runs, jj, b),
                target,
                0.01,
                100,
                true);
        heldOut = ratioWith(model, cal.with(tcp.scaled(scale)), runs, a, b);
      }
      ratios.add(new RatioCheck(r.name(), r.measured(), r.predicted(), heldOut, true, false));
    }
    return flowExponent(yaml, h200, cal, runs, measured, predicted);
  }

  /**
   * {@code path.tcp.flowExponent} fitted to the layouts' runs only: the exponent that makes the
   * model, calibrated by the fixtures' socket nccl-tests, give the measured ratio between the two
   * layouts whose pods talk over sockets (the only ratio the exponent moves); null without two.
   */
  private Fitted flowExponent(
      Path yaml,
      HardwareCatalog h200,
      Calibration cal,
      List<Scenario> runs,
      List<Double> measured,
      List<Prediction> predicted) {
    List<Integer> split = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      if (predicted.get(i).group().inter() != null
          && predicted.get(i).group().inter().path() == PathKind.TCP) {
        split.add(i);
      }
    }
    if (split.size() != 2) {
      return null;
    }
    int more = predicted.get(split.get(0)).stepS() > predicted.get(split.get(1)).stepS() ? 0 : 1;
    int a = split.get(more);
    int b = split.get(1 - more);
    Source from = new Source("FIT", "fitted by topolens validate-model to " + yaml, "");
    // the ratio grows with 1 - exponent (the fewer-flow layout gains more of the rate)
    double e =
        solve(
            x ->
                ratioWith(
                    new StepModel(h200, k.with(Map.of(SocketFlows.EXPONENT, 1 - x), from), cal),
                    runs,
                    a,
                    b),
            measured.get(a) / measured.get(b),
            0,
            1,
            false);
    return new Fitted(
        SocketFlows.EXPONENT,
        1 - e,
        "x",
        String.format(
            Locale.ROOT,
            "%s at %.2fx the step of %s (%s), with the fixtures' socket nccl-tests",
            runs.get(a).name(),
            measured.get(a) / measured.get(b),
            runs.get(b).name(),
            yaml));
  }

  private static double ratioWith(StepModel m, List<Scenario> runs, int a, int b) {
    try {
      return m.predict(runs.get(a)).stepS() / m.predict(runs.get(b)).stepS();
    } catch (InputProblem e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private static int indexOf(List<Scenario> runs, String name) {
    for (int i = 0; i < runs.size(); i++) {
      if (runs.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new IllegalStateException(name);
  }

  private static double ratioWith(StepModel m, Calibration c, List<Scenario> runs, int a, int b) {
    return ratioWith(m.with(c), runs, a, b);
  }

  // ---- 3. the seeds ----

  private void seeds(
      Path examples,
      List<StepCheck> seeds,
      List<RatioCheck> ratios,
      List<Needed> needed,
      List<String> notes,
      List<ValidationReport.SeedTerms> terms,
      List<String> explanations)
      throws InputProblem {
    StepModel model = new StepModel(catalog, k, Calibration.none());
    Path yaml = examples.resolve("seed-runs.yaml");
    List<RunConfig> configs = ScenarioFile.read(yaml);
    List<Scenario> runs = new ArrayList<>();
    List<RunConfig.Measured> meas = new ArrayList<>();
    for (RunConfig rc : configs) {
      if (rc.measured() == null || rc.measured().jobS() == null) {
        throw new InputProblem(yaml + ": run " + rc.name() + " has no measured.jobS");
      }
      runs.add(rc.toScenario(catalog, ModelPresets.bundled(), yaml.toString()).scenario());
      meas.add(rc.measured());
    }
    List<Prediction> dflt = new ArrayList<>();
    List<Double> jobs = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      Prediction p = model.predict(runs.get(i));
      dflt.add(p);
      jobs.add(meas.get(i).jobS());
      seeds.add(
          new StepCheck(
              runs.get(i).name(), meas.get(i).jobS(), p.jobS(), null, meas.get(i).source()));
      terms.add(
          new ValidationReport.SeedTerms(
              runs.get(i).name(),
              meas.get(i).jobS() / runs.get(i).workload().steps(),
              p.stepS(),
              p.seconds(Term.Kind.COMPUTE),
              p.seconds(Term.Kind.OVERHEAD),
              p.seconds(Term.Kind.COMMUNICATION),
              p.seconds(Term.Kind.OFFLOAD_TRANSFER),
              p.seconds(Term.Kind.CPU_OPTIMIZER),
              p.terms().stream()
                  .filter(t -> t.kind() == Term.Kind.CPU_OPTIMIZER)
                  .map(Term::detail)
                  .map(d -> d.contains(": ") ? d.substring(d.indexOf(": ") + 2) : d)
                  .findFirst()
                  .orElse("")));
    }
    // Pairs: the same job on the same instance type, against the faster of the two.
    for (int i = 0; i < runs.size(); i++) {
      for (int j = 0; j < runs.size(); j++) {
        Scenario a = runs.get(i);
        Scenario b = runs.get(j);
        if (i != j
            && sameJob(a, b, false)
            && a.cluster().instance().equals(b.cluster().instance())
            && jobs.get(j) < jobs.get(i)) {
          ratios.add(
              new RatioCheck(
                  a.name() + " / " + b.name(),
                  jobs.get(i) / jobs.get(j),
                  dflt.get(i).jobS() / dflt.get(j).jobS(),
                  null,
                  true,
                  false));
          ratios.add(
              new RatioCheck(
                  "(" + a.name() + " - " + b.name() + ") per step, s",
                  (jobs.get(i) - jobs.get(j)) / a.workload().steps(),
                  dflt.get(i).stepS() - dflt.get(j).stepS(),
                  null,
                  true,
                  true));
        }
      }
    }
    double lo = Double.MAX_VALUE;
    double hi = 0;
    for (int i = 0; i < runs.size(); i++) {
      Scenario s = runs.get(i);
      double t = jobs.get(i);
      Integer seq = null;
      if (jobOf(model, withSeq(s, 65536)) >= t && jobOf(model, withSeq(s, 1)) <= t) {
        seq =
            (int)
                Math.round(
                    solve(x -> jobOf(model, withSeq(s, (int) Math.round(x))), t, 1, 65536, false));
      }
      Double mfu = null;
      if (jobOf(model, withMfu(s, 1.0)) <= t && jobOf(model, withMfu(s, 0.001)) >= t) {
        mfu = solve(m -> jobOf(model, withMfu(s, m)), t, 0.001, 1.0, true);
      }
      needed.add(new Needed(s.name(), seq, mfu, s.workload().seq()));
      double f = dflt.get(i).jobS() / t;
      lo = Math.min(lo, f);
      hi = Math.max(hi, f);
    }
    double gapLo = terms.stream().mapToDouble(ValidationReport.SeedTerms::gapS).min().orElse(0);
    double gapHi = terms.stream().mapToDouble(ValidationReport.SeedTerms::gapS).max().orElse(0);
    List<String> largest = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      Term t =
          dflt.get(i).terms().stream()
              .max(java.util.Comparator.comparingDouble(Term::seconds))
              .orElseThrow();
      largest.add(
          String.format(
              Locale.ROOT,
              "%s: %s (%s s of %s)",
              runs.get(i).name(),
              t.kind() == Term.Kind.COMMUNICATION ? "collectives" : t.label(),
              StepModel.num3(
                  t.kind() == Term.Kind.COMMUNICATION
                      ? dflt.get(i).seconds(Term.Kind.COMMUNICATION)
                      : t.seconds()),
              StepModel.num3(dflt.get(i).stepS())));
    }
    double hooksLo = Double.MAX_VALUE;
    double hooksHi = 0;
    int hidden = 0;
    for (int i = 0; i < runs.size(); i++) {
      Workload w = runs.get(i).workload();
      double h = Zero3Hooks.seconds(k, w) * w.gradAccum();
      hooksLo = Math.min(hooksLo, h);
      hooksHi = Math.max(hooksHi, h);
      double shown = dflt.get(i).seconds(Term.Kind.OVERHEAD);
      double exposed = dflt.get(i).seconds(Term.Kind.COMMUNICATION);
      hidden += shown > 0 && exposed > 0.5 * shown ? 1 : 0;
    }
    notes.add(
        String.format(
            Locale.ROOT,
            "The model predicts the seeds' jobs at %.0f%% to %.0f%% of their measured times: per"
                + " step, %s to %s s of the measured time is in no term (breakdown above). The"
                + " largest predicted term: %s. %s The gap is left in every run, on NVLink, EFA"
                + " and TCP alike, so it is time the runs share that no term holds and no public"
                + " or lent measurement splits: DeepSpeed's parameter-offload path, which the"
                + " public run the hooks were fitted to did not take (the host time an offloaded"
                + " fetch adds, measured on an FSDP2 proxy, is small: docs/model.md, \"ZeRO-3"
                + " module hooks\"), the CPU optimizer on the instances' own CPUs, and the job"
                + " times' model download, tokenisation and CPU-Adam build (a few minutes of"
                + " 28-90).",
            100 * lo,
            100 * hi,
            StepModel.num3(gapLo),
            StepModel.num3(gapHi),
            String.join("; ", largest),
            hooksHi > 0
                ? String.format(
                    Locale.ROOT,
                    "DeepSpeed ZeRO-3's module hooks are priced (%s s per step, from public timers:"
                        + " the ZeRO-3 hooks section)%s.",
                    hooksLo == hooksHi
                        ? StepModel.num3(hooksHi)
                        : StepModel.num3(hooksLo) + "-" + StepModel.num3(hooksHi),
                    hidden > 0
                        ? String.format(
                            Locale.ROOT,
                            "; in %d of the %d runs the collectives stay exposed by more than half"
                                + " the hooks' time, and there the hooks mostly hide under them, as DeepSpeed"
                                + " keeps at most two fetches in flight and its host waits on the"
                                + " oldest (DS-PARAM-COORD)",
                            hidden,
                            runs.size())
                        : "")
                : "DeepSpeed ZeRO-3's module hooks are not priced (zero3.moduleHookS is 0)."));
    List<String> alt = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      Scenario s = runs.get(i);
      if (s.workload().microBatch() == 4 && !s.workload().checkpointing()) {
        continue;
      }
      double job = model.predict(asSeedTextDeclares(s)).jobS();
      alt.add(
          String.format(
              Locale.ROOT,
              "%s %.0f s (%+.1f%%, against %+.1f%% as configured)",
              s.name(),
              job,
              100 * (job / jobs.get(i) - 1),
              100 * (dflt.get(i).jobS() / jobs.get(i) - 1)));
    }
    if (!alt.isEmpty()) {
      notes.add(
          "Declared inputs re-checked (../shared/notes/seed-workload.md, the seeds' own text): the"
              + " trainer block the seeds print beside their times says per-device batch 4 and"
              + " gradient_checkpointing=False, while the logs matched to the p4d runs show batch 1"
              + " with checkpointing on, and the script versions read set checkpointing on;"
              + " seed-runs.yaml keeps the logs' values. With the trainer block's instead: "
              + String.join("; ", alt)
              + ". Either way the shared gap above remains. The other inputs hold: p4d.24xlarge"
              + " has 96 vCPUs of Xeon Platinum 8275CL (Cascade Lake, AVX512; P4D-BLOG) and A100"
              + " 40 GB; g6e.12xlarge 48 vCPUs (AVX2, the seed's log) and 4 L40S; DeepSpeed offloads"
              + " parameters and optimizer with pinned memory, sub_group_size 1e9, gradient"
              + " accumulation 4; torchrun starts 4 processes per pod (1 per pod for 4 pods x 1 GPU),"
              + " and the image's Dockerfile (aws/deep-learning-containers"
              + " pytorch/training/docker/2.8/py3/cu129/Dockerfile.gpu; its base image not read)"
              + " sets no OMP_NUM_THREADS.");
    }
    notes.add(
        "What would close it, none of it a fit to these runs: (1) one run of the same job with"
            + " DeepSpeed's \"wall_clock_breakdown\": true (forward, backward and optimizer-step"
            + " timers), which `predict --deepspeed-timers LOG` turns into a fitted framework time"
            + " per micro-step and CPU Adam rate, judged on the other runs; (2) bench/fused-adam.c"
            + " (or DeepSpeedCPUAdam) at 1-4 threads on the instances' own CPUs (p4d: Xeon"
            + " Platinum 8275CL, AVX512; g6e: AMD EPYC, AVX2): the per-thread rate used is one"
            + " Xeon's; (3) nccl-tests or `topolens probe` over 4 g6e.12xlarge on EFA without"
            + " GPUDirect RDMA: the EFA prior (0.8 of line rate) comes from 2 nodes of another"
            + " instance, and NCCL-235 reports 6-8 GB/s from 8 nodes against 10 GB/s on 2.");
    for (RatioCheck r : ratios) {
      if (r.difference()) {
        notes.add(
            String.format(
                Locale.ROOT,
                "%s: %s s predicted against %s s measured (%+.0f%%); a time both runs share (the"
                    + " missing term above) cancels here, so this checks the network part alone.",
                r.name(),
                StepModel.num3(r.predicted()),
                StepModel.num3(r.measured()),
                100 * (r.predicted() / r.measured() - 1)));
      }
    }
    // One pod per node against a pod per GPU, on the seeds' multi-host cluster over EFA.
    for (int i = 0; i < runs.size(); i++) {
      Scenario s = runs.get(i);
      if (s.cluster().nodes() > 1
          && s.cluster().podsPerNode() == 1
          && s.cluster().network() == PathKind.EFA
          && dflt.get(i).group().intra() != null) {
        layoutExplanation(model, s, dflt.get(i), explanations);
        break;
      }
    }
  }

  private static void layoutExplanation(
      StepModel model, Scenario efa, Prediction one, List<String> explanations)
      throws InputProblem {
    int gpus = efa.cluster().gpusPerPod();
    Scenario perGpu =
        new Scenario(
            efa.name() + ", " + gpus + " pods x 1 GPU",
            efa.workload(),
            efa.cluster().withLayout(gpus, 1));
    Prediction four = model.predict(perGpu);
    explanations.add(
        String.format(
            Locale.ROOT,
            "**Why one pod per node beats a pod per GPU when pods talk over the network.** On %d x"
                + " %s over EFA, 1 pod x %d GPUs per node gives NCCL %d nodes of %d: ring hops"
                + " inside a node use %s and each node's EFA carries one ring crossing at %s GB/s."
                + " With %d pods x 1 GPU NCCL sees %d nodes of 1 (each pod has its own hostname,"
                + " hence its own host hash), so every hop goes over EFA and the pods share the"
                + " node's NIC: %s GB/s each. Collectives then take %s s per step instead of %s s,"
                + " and the model predicts %s s against %s s per step (%sx).",
            efa.cluster().nodes(),
            efa.cluster().instance(),
            gpus,
            one.group().nodes(),
            one.group().ranksPerNode(),
            one.group().intra().path().label(),
            StepModel.num(one.group().inter().busBwGBps()),
            gpus,
            four.group().nodes(),
            StepModel.num(four.group().inter().busBwGBps()),
            StepModel.num3(four.communicationSeconds()),
            StepModel.num3(one.communicationSeconds()),
            StepModel.num3(four.stepS()),
            StepModel.num3(one.stepS()),
            Comparison.ratioText(four.stepS() / one.stepS())));
  }

  // ---- helpers ----

  private static double jobOf(StepModel m, Scenario s) {
    try {
      return m.predict(s).jobS();
    } catch (InputProblem e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /**
   * Bisection for {@code f(x) = target} on [lo, hi]; {@code decreasing} says which way f goes.
   * Returns the nearer bound when the target is outside.
   */
  static double solve(
      DoubleFunction<Double> f, double target, double lo, double hi, boolean decreasing) {
    double a = lo;
    double b = hi;
    for (int i = 0; i < 200; i++) {
      double mid = decreasing ? Math.sqrt(a * b) : (a + b) / 2;
      double v = f.apply(mid);
      boolean tooHigh = v > target;
      if (decreasing == tooHigh) {
        a = mid;
      } else {
        b = mid;
      }
    }
    return (a + b) / 2;
  }

  private static Scenario withMfu(Scenario s, double mfu) {
    return new Scenario(s.name(), s.workload().withMfu(mfu), s.cluster());
  }

  /** The seeds' own trainer block (seeds 000 and 001): per-device batch 4, no checkpointing. */
  private static Scenario asSeedTextDeclares(Scenario s) {
    return new Scenario(s.name(), s.workload().withBatch(4, false), s.cluster());
  }

  private static Scenario withSeq(Scenario s, int seq) {
    return new Scenario(s.name(), s.workload().withSeq(seq), s.cluster());
  }
}
