package io.topolens.cli;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import io.topolens.perf.BenchSample;
import io.topolens.perf.BenchSamples;
import io.topolens.perf.Calibration;
import io.topolens.perf.Calibrations;
import io.topolens.perf.Calibrator;
import io.topolens.perf.PerfConstants;
import io.topolens.perf.RunConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options predict and compare share: the model and batch, the model's assumptions, the catalog,
 * calibration and output format. Each maps onto a {@link RunConfig} key.
 */
final class JobOptions {

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "YAML configuration(s): one run's keys, or defaults: and runs: (see README).")
  Path config;

  @Option(names = "--model", description = "Preset: llama-3-8b, llama-3-70b, mistral-7b.")
  String model;

  @Option(names = "--params", description = "Parameters (with --layers and --hidden, no preset).")
  Long params;

  @Option(names = "--layers", description = "Transformer layers.")
  Integer layers;

  @Option(names = "--hidden", description = "Hidden size.")
  Integer hidden;

  @Option(names = "--seq", description = "Tokens per sample (default 2048).")
  Integer seq;

  @Option(names = "--micro-batch", description = "Samples per GPU per micro-step (default 1).")
  Integer microBatch;

  @Option(names = "--grad-accum", description = "Micro-steps per optimizer step (default 1).")
  Integer gradAccum;

  @Option(names = "--steps", description = "Optimizer steps of the job (default 100).")
  Long steps;

  @Option(names = "--strategy", description = "ddp, zero1, zero2, zero3 or fsdp (default ddp).")
  String strategy;

  @Option(names = "--precision", description = "bf16 (default) or fp32 (needs --tflops).")
  String precision;

  @Option(
      names = "--reduce-dtype",
      description = "Gradient reduction precision (default: --precision).")
  String reduceDtype;

  @Option(
      names = "--checkpointing",
      negatable = true,
      description = "Activation checkpointing (one more forward pass).")
  Boolean checkpointing;

  @Option(names = "--mfu", description = "Model FLOPs utilisation (default 0.4).")
  Double mfu;

  @Option(
      names = "--overhead",
      paramLabel = "SECONDS",
      description = "Measured framework time per micro-step that is not FLOPs (default 0).")
  Double overheadS;

  @Option(names = "--startup", paramLabel = "SECONDS", description = "Added to the job time.")
  Double startupS;

  @Option(names = "--tflops", description = "Peak TFLOPS per GPU (default: catalog BF16 dense).")
  Double tflops;

  @Option(
      names = "--cpu-adam-rate",
      paramLabel = "PARAMS_PER_S",
      description =
          "CPU optimizer throughput per host (default: DeepSpeed 1.8e9 per host; PyTorch from"
              + " --cpu-threads, measured).")
  Double cpuAdamRate;

  @Option(
      names = "--cpu-threads",
      paramLabel = "N",
      description =
          "Threads of each training process's CPU optimizer, OMP_NUM_THREADS (default as"
              + " torchrun leaves them: 1 with several GPUs per pod, else every vCPU of the"
              + " instance).")
  Integer cpuThreads;

  @Option(names = "--nodes", description = "Hosts (default 1).")
  Integer nodes;

  @Option(
      names = "--intra",
      description = "Path between GPUs of a pod: nvlink, pcie, shm, or tcp (P2P and SHM off).")
  String intra;

  @Option(names = "--nic-gbps", description = "Network rate per host in Gbit/s (default: catalog).")
  Double nicGbps;

  @Option(names = "--name", description = "Name of the configuration in the output.")
  String name;

  @Option(
      names = "--catalog",
      paramLabel = "FILE",
      description =
          "Hardware catalog files that add or replace entries (same shape as hardware.json).")
  List<Path> catalogs = new ArrayList<>();

  @Option(
      names = "--calibrate",
      paramLabel = "FILE",
      arity = "1..*",
      description =
          "nccl-tests outputs (with NCCL_DEBUG=INFO, or PATH=FILE such as shm=ar.log) to fit path"
              + " bandwidth and latency.")
  List<String> calibrate = new ArrayList<>();

  @Option(
      names = "--calibrate-min-bytes",
      paramLabel = "BYTES",
      description = "Smallest size the fit uses (default 16 MiB).")
  long calibrateMinBytes = Calibrator.DEFAULT_MIN_BYTES;

  @Option(names = "--format", defaultValue = "text", description = "text (default) or json.")
  Format format;

  @Option(
      names = {"-v", "--verbose"},
      description = "Text: also the links, assumptions, inputs and their sources.")
  boolean verbose;

  /** The options given, as {@link RunConfig} keys. */
  Map<String, Object> values() {
    Map<String, Object> m = new LinkedHashMap<>();
    put(m, "name", name);
    put(m, "model", model);
    put(m, "params", params);
    put(m, "layers", layers);
    put(m, "hidden", hidden);
    put(m, "seq", seq);
    put(m, "microBatch", microBatch);
    put(m, "gradAccum", gradAccum);
    put(m, "steps", steps);
    put(m, "strategy", strategy);
    put(m, "precision", precision);
    put(m, "reduceDtype", reduceDtype);
    put(m, "checkpointing", checkpointing);
    put(m, "mfu", mfu);
    put(m, "overheadS", overheadS);
    put(m, "startupS", startupS);
    put(m, "tflops", tflops);
    put(m, "cpuAdamRate", cpuAdamRate);
    put(m, "cpuThreads", cpuThreads);
    put(m, "nodes", nodes);
    put(m, "intra", intra);
    put(m, "nicGbps", nicGbps);
    return m;
  }

  static void put(Map<String, Object> m, String key, Object value) {
    if (value != null) {
      m.put(key, value);
    }
  }

  /** The built-in catalog with the --catalog files. */
  HardwareCatalog catalog() throws InputProblem {
    return HardwareCatalog.load(catalogs);
  }

  /** The --config runs, or one empty configuration. */
  List<RunConfig> fileRuns() throws InputProblem {
    return config == null ? List.of(RunConfig.empty()) : io.topolens.perf.ScenarioFile.read(config);
  }

  /** The calibration from --calibrate, or none. */
  Calibration calibration(HardwareCatalog catalog) throws InputProblem {
    if (calibrate.isEmpty()) {
      return Calibration.none();
    }
    if (calibrateMinBytes < 1) {
      throw new InputProblem("--calibrate-min-bytes must be positive");
    }
    BenchSamples reader = new BenchSamples(catalog);
    List<BenchSample> samples = new ArrayList<>();
    for (String arg : calibrate) {
      samples.add(reader.read(arg));
    }
    return Calibrations.fit(samples, new Calibrator(PerfConstants.bundled(), calibrateMinBytes));
  }
}
