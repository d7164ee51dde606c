package io.topolens.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.experiment.Experiment;
import io.topolens.perf.RunConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * predict's step for each variant of a real experiment (bench/results/h200x4-experiment-4, 4 x
 * H200), each from its own probe; {@link RecordedPredictionsTest} holds them against
 * validate-model.
 */
class PredictionsTest {
  static final String RUN = "h200x4-experiment-4";
  static final Path CATALOG = Path.of("../examples/perf/h200x4-catalog.json").toAbsolutePath();

  @TempDir Path dir;

  private List<Experiment.Variant> predict(ExperimentSpec spec, List<Experiment.Variant> vs)
      throws Exception {
    List<String> said = new ArrayList<>();
    Experiment e =
        Predictions.apply(
            spec, new Experiment(RUN, vs), HardwareCatalog.load(spec.catalogs()), said::add);
    return e.variants();
  }

  @Test
  void withoutAMeasuredStepEachVariantKeepsItsProbesPredictionAndNoneWithOneStep()
      throws Exception {
    ExperimentSpec spec = Recorded.spec(RUN, dir);
    List<Experiment.Variant> stored = Experiment.read(Recorded.RESULTS.resolve(RUN)).variants();
    List<Experiment.Variant> withSteps = predict(spec, stored);
    List<Experiment.Variant> probeOnly =
        predict(
            spec, stored.stream().map(v -> changed(v, v.busbw(), null, v.transports())).toList());
    for (int i = 0; i < stored.size(); i++) {
      assertThat(probeOnly.get(i).predictedSeconds())
          .isEqualTo(withSteps.get(i).predictedSeconds())
          .isNotNull();
      assertThat(withSteps.get(i).predictedWithStepSeconds()).isNotNull();
      assertThat(probeOnly.get(i).predictedWithStepSeconds()).isNull();
      assertThat(probeOnly.get(i).predictedWithStepFrom()).isNull();
    }
  }

  /**
   * 4 pods of 1 over sockets: its probe measured 4.28 GB/s at best, which the catalog does not
   * know.
   */
  @Test
  void aVariantWithoutProbeBusbwIsPredictedFromTheCatalog() throws Exception {
    ExperimentSpec spec = Recorded.spec(RUN, dir);
    List<Experiment.Variant> stored = Experiment.read(Recorded.RESULTS.resolve(RUN)).variants();
    Experiment.Variant fourPods =
        stored.stream().filter(v -> v.name().equals("4x1")).findFirst().orElseThrow();
    Experiment.Variant probed = predict(spec, List.of(fourPods)).getFirst();
    Experiment.Variant unprobed =
        predict(spec, List.of(changed(fourPods, Map.of(), null, fourPods.transports()))).getFirst();
    // the same probe without NCCL's path lines (gloo): its busbw is no path's
    Experiment.Variant pathless =
        predict(spec, List.of(changed(fourPods, fourPods.busbw(), null, List.of()))).getFirst();
    assertThat(probed.predictedFrom())
        .isEqualTo(
            "its own probe: TCP sockets at "
                + fourPods.busbw().values().stream().max(Double::compare).orElseThrow()
                + " GB/s busbw");
    assertThat(unprobed.predictedFrom()).startsWith("catalog");
    assertThat(unprobed.predictedSeconds()).isNotEqualTo(probed.predictedSeconds());
    assertThat(pathless.predictedFrom()).startsWith("catalog (no NCCL path lines");
    assertThat(pathless.predictedSeconds()).isEqualTo(unprobed.predictedSeconds());
  }

  /** The same variant with other busbw, steps and transports, and no predictions. */
  static Experiment.Variant changed(
      Experiment.Variant v,
      Map<String, Double> busbw,
      Experiment.Steps steps,
      List<String> transports) {
    return new Experiment.Variant(
        v.name(),
        v.status(),
        v.layout(),
        v.ranks(),
        v.dir(),
        busbw,
        steps,
        transports,
        v.findings(),
        v.nodes(),
        v.network(),
        v.offload(),
        v.env(),
        v.repeat(),
        v.reason(),
        v.elapsedSeconds(),
        null,
        null,
        null,
        null,
        null,
        null);
  }

  /**
   * The path inside a pod follows the transports its NCCL logs name, as the held-out runs of issue
   * 12 showed them (bench/results/h100x2-heldout-deep: P2P/CUMEM, SHM/direct/direct, NET/Socket/0).
   */
  @ParameterizedTest(name = "{0} over {1}")
  @CsvSource({
    "1x2, P2P/CUMEM, ",
    "1x2, SHM/direct/direct, shm",
    "1x2, NET/Socket/0, tcp",
    "2x1, NET/Socket/0, ",
  })
  void theIntraPathFollowsTheLoggedTransport(String layout, String transport, String intra)
      throws Exception {
    RunConfig rc = config(layout, "", "").config(transport);
    assertThat(rc.intra()).isEqualTo(intra);
  }

  /** The CPU optimizer's threads follow the OMP_NUM_THREADS its ranks got, the variant's first. */
  @ParameterizedTest(name = "spec {0}, variant {1}")
  @CsvSource({
    "'', '', ",
    "'env: {OMP_NUM_THREADS: 8}', '', 8",
    "'env: {OMP_NUM_THREADS: 8}', 'env: {OMP_NUM_THREADS: 2}', 2",
    "'', 'env: {OMP_NUM_THREADS: 4}', 4",
  })
  void theCpuThreadsFollowOmpNumThreads(String specEnv, String variantEnv, Integer threads)
      throws Exception {
    RunConfig rc = config("1x2", specEnv, variantEnv).config("P2P/CUMEM");
    assertThat(rc.cpuThreads()).isEqualTo(threads);
  }

  private record Spec(ExperimentSpec spec) {
    RunConfig config(String transport) throws Exception {
      return Predictions.config(spec, spec.variants().getFirst(), List.of(transport));
    }
  }

  private Spec config(String layout, String specEnv, String variantEnv) throws Exception {
    Path specFile = dir.resolve("spec.yaml");
    Files.writeString(
        specFile,
        """
        catalog: %s
        %s
        predict:
          instance: h200x4-vm
          params: 852559872
          layers: 16
          hidden: 2048
        variants:
          - layout: %s
            offload: [cpu]
            %s
        """
            .formatted(CATALOG, specEnv, layout, variantEnv));
    return new Spec(SpecReader.read(specFile));
  }
}
