package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.topolens.Fixtures;
import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The step model: volumes, offload traffic, FLOPs, ratios on the H200 FSDP runs, bottlenecks. */
class StepModelTest {
  private static final HardwareCatalog CATALOG = HardwareCatalog.builtIn();

  static Scenario scenario(String pairs) throws InputProblem {
    return scenario(pairs, CATALOG);
  }

  /** A scenario from {@code key=value;...} pairs, on the hosts of {@code catalog}. */
  static Scenario scenario(String pairs, HardwareCatalog catalog) throws InputProblem {
    Map<String, Object> m = new LinkedHashMap<>();
    for (String kv : pairs.split(";")) {
      String[] p = kv.split("=", 2);
      m.put(p[0].trim(), p[1].trim());
    }
    return RunConfig.fromMap(m, "test")
        .toScenario(catalog, ModelPresets.bundled(), "test")
        .scenario();
  }

  static final String SEED =
      "model=llama-3-8b;seq=512;gradAccum=4;steps=50;zero=3;offload=cpu;checkpointing=true;";

  /**
   * A host-bound step (0.85 B parameters, 16 layers, 1024 tokens): FSDP's launches grow by
   * compute.launchPerPeerShare per other rank up to compute.launchPeerCap; DDP and ZeRO-3 (not
   * measured) keep one rank's.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "strategy=fsdp;layout=1x1|0",
        "strategy=fsdp;layout=1x2|1",
        "strategy=fsdp;layout=1x4|3",
        "strategy=fsdp;layout=1x8|3",
        "strategy=fsdp;nodes=2;layout=1x8|3",
        "strategy=ddp;layout=1x4|0",
        "zero=3;layout=1x4|0",
      })
  void launchesGrowWithTheRanksUnderFsdpOnly(String pairs, int peers) throws Exception {
    PerfConstants k = PerfConstants.bundled();
    Prediction p =
        StepModel.standard()
            .predict(
                scenario(
                    "params=852559872;layers=16;hidden=2048;seq=1024;microBatch=1;"
                        + "instance=p5.48xlarge;"
                        + pairs));
    double compute =
        p.terms().stream()
            .filter(t -> t.kind() == Term.Kind.COMPUTE)
            .findFirst()
            .orElseThrow()
            .seconds();
    double launch =
        16
            * k.value("compute.launchPerLayerS")
            * (1 + k.value("compute.launchPerPeerShare") * peers);
    assertThat(compute).isCloseTo(launch, within(1e-12));
  }

  /**
   * A probe's launch measurement scales the per-layer launch time by its layer op over the fit
   * host's (compute.launchRefLayerUs) and is said in the inputs; a given MFU leaves it out, and
   * without one the model is the fit host's.
   */
  @ParameterizedTest
  @CsvSource({"1x1, 0.5", "1x1, 2", "1x4, 1.5", "1x4, 1"})
  void theProbesLaunchSpeedScalesTheLaunches(String layout, double scale) throws Exception {
    PerfConstants k = PerfConstants.bundled();
    double ref = k.value("compute.launchRefLayerUs");
    Scenario s = launchScenario(layout);
    io.topolens.bench.ProbeLaunch probe = probeLaunch(ref * scale);
    StepModel plain = StepModel.standard();
    StepModel measured = plain.with(Calibration.none().withLaunchScaled(probe));
    assertThat(compute(measured.predict(s)))
        .isCloseTo(scale * compute(plain.predict(s)), within(1e-12));
    Input launch =
        measured.predict(s).inputs().stream()
            .filter(i -> i.name().equals("launch"))
            .findFirst()
            .orElseThrow();
    assertThat(launch.value())
        .startsWith(
            "measured by the probe, "
                + StepModel.num3(ref * scale)
                + " us/op against "
                + StepModel.num3(ref)
                + " on the fit host");
    assertThat(launch.sources()).contains("rank-0.out:83", "LAUNCH-BRIDGE-H100");
    assertThat(plain.predict(s).inputs()).noneMatch(i -> i.name().equals("launch"));
    Scenario given =
        scenario(
            "params=852559872;layers=16;hidden=2048;seq=1024;microBatch=1;instance=p5.48xlarge;"
                + "strategy=fsdp;mfu=0.3;layout="
                + layout);
    assertThat(measured.predict(given).stepS()).isEqualTo(plain.predict(given).stepS());
  }

  /**
   * A probe's launch speed is shown and not applied unless asked for: on held-out one-pod steps it
   * widened the errors (docs/model-validation.md, the launch section).
   */
  @ParameterizedTest
  @CsvSource({"1x1, 0.5", "1x4, 1.5"})
  void theProbesLaunchSpeedIsShownNotApplied(String layout, double scale) throws Exception {
    PerfConstants k = PerfConstants.bundled();
    double ref = k.value("compute.launchRefLayerUs");
    Scenario s = launchScenario(layout);
    io.topolens.bench.ProbeLaunch probe = probeLaunch(ref * scale);
    StepModel plain = StepModel.standard();
    Prediction shown = plain.with(Calibration.none().withLaunch(probe)).predict(s);
    assertThat(shown.stepS()).isEqualTo(plain.predict(s).stepS());
    assertThat(shown.inputs())
        .filteredOn(i -> i.name().equals("launch"))
        .singleElement()
        .satisfies(i -> assertThat(i.value()).contains("not applied"));
  }

  /** The one-pod FSDP job of the launch tests on the given layout. */
  private static Scenario launchScenario(String layout) throws Exception {
    return scenario(
        "params=852559872;layers=16;hidden=2048;seq=1024;microBatch=1;instance=p5.48xlarge;"
            + "strategy=fsdp;layout="
            + layout);
  }

  /** A probe's launch line whose layer op took {@code layerUs}. */
  private static io.topolens.bench.ProbeLaunch probeLaunch(double layerUs) {
    return new io.topolens.bench.ProbeLaunch(
        7, 15, layerUs, 1, 5, 200, new io.topolens.model.Evidence("rank-0.out", 83, "x"));
  }

  private static double compute(Prediction p) {
    return p.terms().stream()
        .filter(t -> t.kind() == Term.Kind.COMPUTE)
        .findFirst()
        .orElseThrow()
        .seconds();
  }

  /** Bytes per GPU per step in bus terms: the seeds' notes derive 144.5 GB (n=4), 180.7 (n=16). */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "instance=p4d.24xlarge;layout=1x4;zero=3;gradAccum=4|144.54",
        "instance=g6e.12xlarge;nodes=4;layout=1x4;network=efa;zero=3;gradAccum=4|180.68",
        "instance=p4d.24xlarge;layout=1x4;zero=0;gradAccum=4|24.09",
        "instance=p4d.24xlarge;layout=1x4;zero=1;gradAccum=4|24.09",
        "instance=p4d.24xlarge;layout=1x4;zero=2;gradAccum=4|60.23",
        "instance=p4d.24xlarge;layout=1x4;strategy=fsdp;gradAccum=1|36.14",
        "instance=p4d.24xlarge;layout=1x1;zero=3;gradAccum=4|0",
      })
  void collectiveVolumes(String pairs, double gb) throws Exception {
    Prediction p = StepModel.standard().predict(scenario("model=llama-3-8b;" + pairs));
    assertThat(Math.round(p.communicationGB() * 100) / 100.0).isEqualTo(gb);
  }

  /** DeepSpeed ZeRO-3 offload traffic per GPU: 48.2 / 24.1 GB at n=4, 12.0 / 6.0 at n=16. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "instance=p4d.24xlarge;layout=1x4|48.18 GB host-to-GPU and 24.09 GB GPU-to-host",
        "instance=g6e.12xlarge;nodes=4;layout=1x4;network=efa|12.05 GB host-to-GPU and 6.02 GB GPU-to-host",
        "instance=g6e.12xlarge;nodes=4;layout=1x4;network=efa;offload=optimizer|5.02 GB host-to-GPU and 6.02 GB GPU-to-host",
      })
  void offloadTraffic(String pairs, String detail) throws Exception {
    Prediction p = StepModel.standard().predict(scenario(SEED + "microBatch=1;" + pairs));
    Term t =
        p.terms().stream()
            .filter(x -> x.kind() == Term.Kind.OFFLOAD_TRANSFER)
            .findFirst()
            .orElseThrow();
    assertThat(t.detail()).startsWith(detail);
  }

  @ParameterizedTest
  @CsvSource({
    // checkpointing, seq, FLOP per GPU per step
    "true, 512, 1.338e14",
    "false, 512, 1.003e14",
    "false, 4096, 8.95e14",
  })
  void flops(boolean ckpt, int seq, double flops) throws Exception {
    Prediction p =
        StepModel.standard()
            .predict(
                scenario(
                    "model=llama-3-8b;instance=p4d.24xlarge;layout=1x4;gradAccum=4;mfu=0.5;seq="
                        + seq
                        + ";checkpointing="
                        + ckpt));
    double compute =
        p.terms().stream()
            .filter(t -> t.label().equals("compute"))
            .findFirst()
            .orElseThrow()
            .seconds();
    double f = compute * 312e12 * 0.5;
    assertThat(f).isCloseTo(flops, within(flops * 0.001));
  }

  @Test
  void termsAddUpToTheStep() throws Exception {
    for (String s :
        List.of(
            SEED + "instance=p4d.24xlarge;layout=4x1;network=efa;microBatch=1",
            "model=mistral-7b;instance=p5.48xlarge;nodes=2;zero=2;gradAccum=8",
            "model=llama-3-70b;instance=p5en.48xlarge;nodes=8;strategy=fsdp")) {
      Prediction p = StepModel.standard().predict(scenario(s));
      assertThat(p.terms().stream().mapToDouble(Term::seconds).sum())
          .isCloseTo(p.stepS(), within(1e-9));
      assertThat(p.jobS()).isCloseTo(p.stepS() * p.scenario().workload().steps(), within(1e-6));
      assertThat(p.sources()).isNotEmpty();
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "instance=p4d.24xlarge;layout=1x4;microBatch=1|CPU-bound:",
        "instance=p4d.24xlarge;layout=4x1;network=efa;microBatch=1|Overhead-bound: ZeRO-3's module hooks",
        "instance=g6e.12xlarge;nodes=4;layout=1x4;network=eni;intra=shm;microBatch=4|Communication-bound: the collectives move 180.68 GB per GPU per step over TCP sockets at 2.68 GB/s",
      })
  void seedBottlenecks(String pairs, String start) throws Exception {
    assertThat(StepModel.standard().predict(scenario(SEED + pairs)).bottleneck()).startsWith(start);
  }

  @Test
  void computeBound() throws Exception {
    Prediction p =
        StepModel.standard()
            .predict(
                scenario(
                    "model=llama-3-8b;instance=p5.48xlarge;strategy=fsdp;seq=4096;microBatch=4"));
    assertThat(p.bottleneck()).startsWith("Compute-bound: GPU compute takes");
    assertThat(p.explanations().get(0)).startsWith("Collectives take");
  }

  @Test
  void podsPerNodeExplained() throws Exception {
    Prediction p =
        StepModel.standard()
            .predict(scenario(SEED + "instance=g6e.12xlarge;nodes=4;layout=4x1;network=efa"));
    assertThat(p.group().nodes()).isEqualTo(16);
    assertThat(p.group().inter().busBwGBps()).isEqualTo(2.5);
    assertThat(p.explanations())
        .contains(
            "With 4 pods per node NCCL sees 16 nodes of 1 GPU(s): each pod has its own hostname, so"
                + " GPUs of one host talk over EFA at 2.5 GB/s per pod instead of over SHM or PCIe;"
                + " one pod per node keeps that traffic inside the host.");
  }

  @Test
  void hostMemoryWarning() throws Exception {
    Prediction p =
        StepModel.standard()
            .predict(scenario("model=llama-3-70b;instance=g6e.12xlarge;zero=3;offload=cpu"));
    assertThat(p.warnings())
        .containsExactly(
            "offload needs about 1269.97 GB of host memory per node (18 bytes per parameter x 7.06e10"
                + " parameters), more than 90% of g6e.12xlarge's 384 GiB");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "model=llama-3-8b;instance=p4d.24xlarge;offload=cpu|DDP has no CPU offload; use --zero 1, 2 or 3, or --strategy fsdp",
        "model=llama-3-8b;instance=p4d.24xlarge;precision=fp32|the catalog has no FP32/TF32 peak for NVIDIA A100 SXM4 40GB; pass --tflops",
        "model=llama-3-8b;instance=g5.12xlarge|the catalog has no BF16 TFLOPS for NVIDIA A10G; pass --tflops",
        "model=llama-3-8b;instance=g6e.12xlarge;layout=2x4|layout 2x4 needs 8 GPUs per node; g6e.12xlarge has 4",
        "model=llama-3-8b;instance=g6e.12xlarge;intra=nvlink|NVIDIA L40S has no NVLink in the catalog; use --intra pcie or shm",
        "model=llama-3-8b;instance=g6e.12xlarge;nodes=2;network=ib|the catalog has no InfiniBand rate for g6e.12xlarge; pass --nic-gbps",
      })
  void problems(String pairs, String message) {
    assertThatThrownBy(() -> StepModel.standard().predict(scenario(pairs)))
        .isInstanceOf(InputProblem.class)
        .hasMessage(message);
  }

  /**
   * The H200 FSDP runs with the paths calibrated from the same machine's nccl-tests and nothing
   * fitted to these runs (compute and offload constants come from the one-H100 runs): the ratios
   * between transports against the measured ones, within issue 12's 25% for layouts and transports
   * of one host, or missing it only where the P2P step alone misses. The CPU optimizer threads of
   * the offload runs were not recorded: torchrun's 1.
   */
  @ParameterizedTest
  @CsvSource({
    "shm, p2p, fsdp/shm.log, fsdp/p2p.log",
    "sock, p2p, fsdp/sock.log, fsdp/p2p.log",
    "sock-off, p2p-off, fsdp/sock-off.log, fsdp/p2p-off.log",
  })
  void fsdpRatiosBetweenTransports(String a, String b, String logA, String logB) throws Exception {
    HardwareCatalog h200 = CATALOG.with(Path.of("../examples/perf/h200x4-catalog.json"));
    List<BenchSample> samples = new ArrayList<>();
    BenchSamples reader = new BenchSamples(h200);
    for (String f :
        List.of(
            "ar-p2p",
            "ag-p2p",
            "rs-p2p",
            "ar-p2p-g2",
            "ar-ring",
            "ar-shm",
            "ag-shm",
            "ar-sock",
            "ag-sock")) {
      samples.add(reader.read(Fixtures.path("fixtures/h200x4/" + f + ".log"), f, null));
    }
    StepModel model =
        new StepModel(
            h200, PerfConstants.bundled(), Calibrations.fit(samples, Calibrator.standard()));
    Map<String, Double> step = new LinkedHashMap<>();
    for (RunConfig rc : ScenarioFile.read(Path.of("../examples/perf/h200-fsdp.yaml"))) {
      Scenario s = rc.toScenario(h200, ModelPresets.bundled(), "h200-fsdp.yaml").scenario();
      step.put(s.name(), model.predict(s).stepS());
    }
    double measured =
        MeasuredStep.read(Fixtures.path("fixtures/h200x4/" + logA), logA).stepS()
            / MeasuredStep.read(Fixtures.path("fixtures/h200x4/" + logB), logB).stepS();
    double ratio = step.get(a) / step.get(b);
    System.out.println(a + "/" + b + " predicted " + ratio + " measured " + measured);
    double errA =
        step.get(a) / MeasuredStep.read(Fixtures.path("fixtures/h200x4/" + logA), logA).stepS() - 1;
    double errB =
        step.get(b) / MeasuredStep.read(Fixtures.path("fixtures/h200x4/" + logB), logB).stepS() - 1;
    if (Math.abs(ratio / measured - 1) >= 0.25) {
      // the known miss is the P2P step's, not the transport's: the fixtures' host launched the
      // 4-rank step faster than compute.launchPerLayerS with its world-size term prices it
      // (docs/model-validation.md section 1); the other transport's step holds
      assertThat(Math.abs(errB)).as(b).isGreaterThan(OneGpuValidation.TARGET);
      assertThat(Math.abs(errA)).as(a).isLessThan(OneGpuValidation.TARGET);
    }
  }

  private static CollectiveUse use(Prediction p, String purpose) {
    return p.collectives().stream()
        .filter(u -> u.purpose().equals(purpose))
        .findFirst()
        .orElseThrow();
  }

  /**
   * Each pass hides only its own collectives: with a forward long enough for its gathers and a
   * backward too short for its gathers and reductions, the forward's slack hides none of the
   * backward's traffic (one pooled window would have).
   */
  @Test
  void aSlackForwardDoesNotHideBackwardTraffic() throws Exception {
    Prediction p =
        StepModel.standard()
            .predict(
                scenario(
                    "instance=p4d.24xlarge;layout=1x2;intra=shm;params=777856512;layers=24;"
                        + "hidden=1536;seq=1024;microBatch=2;strategy=fsdp;reduceDtype=fp32;"
                        + "mfu=0.25"));
    // the forward and backward's term, not the GPU optimizer's
    double compute =
        p.terms().stream()
            .filter(t -> t.label().equals("compute"))
            .findFirst()
            .orElseThrow()
            .seconds();
    CollectiveUse fwd = use(p, "parameters before forward");
    CollectiveUse bwd = use(p, "parameters before backward");
    CollectiveUse rs = use(p, "gradients");
    double ag = fwd.seconds();
    // the case: the forward (1/3 of compute) outlasts its gathers, the backward (2/3) does not
    assertThat(ag).isLessThan(compute / 3);
    assertThat(ag + rs.seconds()).isGreaterThan(2 * compute / 3);
    // the forward exposes only its first layer's gather
    assertThat(fwd.exposedSeconds()).isCloseTo(ag / 24, within(1e-12));
    double exposed = fwd.exposedSeconds() + bwd.exposedSeconds() + rs.exposedSeconds();
    double pooled = (2 * ag + rs.seconds() - compute) + (ag + rs.seconds()) / 24;
    assertThat(exposed).isGreaterThan(pooled);
    assertThat(exposed)
        .isCloseTo(
            ag / 24 + (ag + rs.seconds() - 2 * compute / 3) + rs.seconds() / 24, within(1e-12));
  }
}
