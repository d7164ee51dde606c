package io.topolens.perf;

import java.util.List;

/**
 * The model against measurements (docs/model-validation.md): nccl-tests bus bandwidth per size,
 * FSDP step-time ratios between transports, and the seeds' job times.
 *
 * @param oneGpu the one-GPU runs against the compute and offload terms, or null when not given
 * @param bench every nccl-tests size of at least 1 MiB, predicted three ways
 * @param fits the path fits from all the nccl-tests files
 * @param skipped files left out of the bench section, with why
 * @param steps the FSDP runs, measured and predicted
 * @param ratios FSDP step-time ratios, measured and predicted
 * @param layoutSteps pods sharing a host (h200-layouts.yaml), measured and predicted
 * @param layoutRatios their ratios; {@code predictedFitted} with the TCP path fitted to another
 *     layout's measured step (held out)
 * @param seeds the seeds' runs
 * @param seedRatios ratios and differences between the seeds' runs
 * @param needed what the seeds' times would need (sequence length, MFU)
 * @param seedNotes where the seeds' predictions miss and why, with the numbers
 * @param seedTerms each seed run's predicted step by term, against its measured step
 * @param experiments experiments' results.json against the model, in the order given (none: empty)
 * @param explanations the three explanations the issue asks for, with the model's numbers
 * @param hostThreads the host-threads sweep (bench/host-threads.py) among the bench files, or null
 * @param spreads one job's experiment repeated on one machine, one per folder given (none: empty)
 * @param flowExponent {@code path.tcp.flowExponent} fitted to the layouts, or null without them
 * @param onePod each experiment's reference step (the variant predicted fastest without offload)
 *     predicted with and without {@code compute.launchPerPeerShare}
 * @param publicOffload public DeepSpeed ZeRO-Offload runs and the rate they support, or null
 * @param zero3Hooks {@code zero3.moduleHookS} fitted to the public runs' timers, and the seeds with
 *     and without it, or null
 */
public record ValidationReport(
    OneGpuValidation.Report oneGpu,
    List<BenchPoint> bench,
    List<PathFit> fits,
    List<String> skipped,
    List<StepCheck> steps,
    List<RatioCheck> ratios,
    List<StepCheck> layoutSteps,
    List<RatioCheck> layoutRatios,
    List<StepCheck> seeds,
    List<RatioCheck> seedRatios,
    List<Needed> needed,
    List<String> seedNotes,
    List<SeedTerms> seedTerms,
    List<String> explanations,
    List<ExperimentValidation.Report> experiments,
    HostThreadsSweep hostThreads,
    List<RunSpread> spreads,
    Fitted flowExponent,
    List<OnePodStep> onePod,
    List<LaunchChecks.Check> launch,
    PublicOffloadRuns.Report publicOffload,
    Zero3HookFit.Report zero3Hooks) {

  public ValidationReport {
    bench = List.copyOf(bench);
    fits = List.copyOf(fits);
    skipped = List.copyOf(skipped);
    steps = List.copyOf(steps);
    ratios = List.copyOf(ratios);
    layoutSteps = List.copyOf(layoutSteps);
    layoutRatios = List.copyOf(layoutRatios);
    seeds = List.copyOf(seeds);
    seedRatios = List.copyOf(seedRatios);
    needed = List.copyOf(needed);
    seedNotes = List.copyOf(seedNotes);
    seedTerms = List.copyOf(seedTerms);
    explanations = List.copyOf(explanations);
    experiments = List.copyOf(experiments);
    spreads = List.copyOf(spreads);
    onePod = List.copyOf(onePod);
    launch = List.copyOf(launch);
  }

  /**
   * An experiment's reference step, each variant's path calibrated by its own probe.
   *
   * @param ranks the ranks of the variant
   * @param with predicted with {@code compute.launchPerPeerShare} as shipped
   * @param without predicted with it 0 (the launches of one rank at every world size)
   */
  public record OnePodStep(
      String results, String variant, int ranks, double measured, double with, double without) {}

  /**
   * One nccl-tests size.
   *
   * @param algorithm what the run forced (NCCL_ALGO), or "auto"
   * @param measured out-of-place busbw, GB/s
   * @param prior predicted from the catalog and NCCL's model alone
   * @param calibrated predicted after fitting the path to every Ring/Simple file of the fixtures
   * @param heldOut predicted after fitting the path to the other files only, or null when this file
   *     is the path's only Ring/Simple file or was not in the fit (Tree)
   * @param choice the algorithm/protocol the calibrated model picked
   * @param evidence the measured row
   */
  public record BenchPoint(
      String file,
      PathKind path,
      CollectiveOp op,
      int ranks,
      String algorithm,
      long bytes,
      double measured,
      double prior,
      double calibrated,
      Double heldOut,
      String choice,
      String evidence) {}

  /**
   * A step time.
   *
   * @param measured seconds (a step, or a job for the seeds)
   * @param predicted with the defaults
   * @param predictedFitted with the declared one-point fits, or null
   * @param source where the measurement is
   */
  public record StepCheck(
      String name, double measured, double predicted, Double predictedFitted, String source) {}

  /**
   * A ratio (or a difference) between two runs.
   *
   * @param betweenTransports whether the two runs differ only in transport (the target's ratios)
   * @param difference true when the numbers are differences in seconds, not ratios
   */
  public record RatioCheck(
      String name,
      double measured,
      double predicted,
      Double predictedFitted,
      boolean betweenTransports,
      boolean difference) {}

  /** A fitted parameter, and the data it was fitted to. */
  public record Fitted(String parameter, double value, String unit, String fittedTo) {}

  /**
   * What a seed run would need for the model to match it.
   *
   * @param seqAtDefaultMfu tokens per sample at the default MFU, or null when no length matches
   * @param mfuAtSeq the MFU at the configured sequence length, or null when none in (0, 1] does
   */
  public record Needed(String name, Integer seqAtDefaultMfu, Double mfuAtSeq, int seq) {}

  /**
   * A seed run's step: measured (job time over steps) and predicted, by term.
   *
   * @param hooksS ZeRO-3's module hooks
   * @param communicationS exposed collectives
   * @param copiesS host-GPU copies of the offload
   * @param cpuS the CPU optimizer step
   * @param cpuDetail how the CPU step was priced (threads, rate)
   */
  public record SeedTerms(
      String name,
      double measuredStepS,
      double predictedStepS,
      double computeS,
      double hooksS,
      double communicationS,
      double copiesS,
      double cpuS,
      String cpuDetail) {
    /** Measured minus predicted, seconds per step: what no term holds. */
    public double gapS() {
      return measuredStepS - predictedStepS;
    }
  }
}
