package io.topolens.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.nccl.InputProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class SpecReaderTest {

  @TempDir Path dir;

  private Path spec(String text) throws Exception {
    Path f = dir.resolve("spec.yaml");
    Files.writeString(f, text.replace('|', '\n'));
    return f;
  }

  /** Each bad spec (lines joined by |) gives one line naming its file, its line and the problem. */
  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "name: x|variant:|  layout: 1x2; 2; unknown key \"variant\" (known: about, catalog, device,"
            + " env, name, predict, probe, run, timeout, train, variants, where)",
        "predict:|  model: llama-3-8b|  layout: 1x4|variants: {layout: 1x2}; 3; layout comes from each"
            + " variant, not from predict:",
        "predict:|  model: llama-3-8b|  zeroo: 3|variants: {layout: 1x2}; 3; unknown key \"zeroo\""
            + " under predict: (known: checkpointing, cpuAdamRate, cpuThreads, gradAccum, hidden, instance,"
            + " intra, layers, mfu, microBatch, model, nicGbps, offload, overheadS, params,"
            + " precision, reduceDtype, seq, startupS, steps, strategy, tflops, zero)",
        "predict:|  model: llama-3-8b|variants: {layout: 1x2}; 1; predict: no instance type (--instance)",
        "catalog: lab.json|variants: {layout: 1x2}; 1; no such file: DIR/lab.json",
        "variants:|  layout:|    - 1x2|    - 2by2; 4; layout \"2by2\" is not PODSxGPUS (e.g. 1x4 or 4x1)",
        "probe:|  collectives: [all_reduce, allreduce]|variants: {layout: 1x2}; 2; unknown collective"
            + " \"allreduce\" (all_reduce, all_gather, reduce_scatter, alltoall, broadcast)",
        "probe:|  size: 1M|variants: {layout: 1x2}; 2; unknown key \"size\" under probe: (known: args,"
            + " collectives, iters, maxBytes, minBytes, pairs, stepFactor, warmup)",
        "probe:|  maxBytes: lots|variants: {layout: 1x2}; 2; maxBytes: must be a size such as 8, 1K,"
            + " 64M or 1G, not \"lots\"",
        "variants:|  layout: 1x2|  network: [efa, wifi]; 3; network is efa, eni or ib, not \"wifi\"",
        "variants:|  layout: 1x2|  offload: gpu; 3; unknown offload \"gpu\" (none, optimizer or cpu)",
        "variants:|  layout: 1x2|  nodes: [1, 0]; 3; nodes must be a whole number of at least 1, not"
            + " \"0\"",
        "variants:|  layout: 1x2|  repeats: 0; 3; repeats: must be a whole number of at least 1, not"
            + " \"0\"",
        "variants:|  layout: 1x2|  env:|    - {}|    - {NCCL_P2P_DISABLE: [1]}; 5; NCCL_P2P_DISABLE"
            + " needs a value (a string or a number)",
        "variants:|  layout: 1x2|  env: NCCL_P2P_DISABLE; 3; \"NCCL_P2P_DISABLE\" is not NAME=VALUE",
        "run: train|variants: {layout: 1x2}; 1; run: train needs train: (the training command)",
        "run: bench|variants: {layout: 1x2}; 1; run \"bench\" is not probe, train or probe+train",
        "where: cloud|variants: {layout: 1x2}; 1; where is local or kubernetes:, not \"cloud\"",
        "where:|  kubernetes:|    instance: p4d.24xlarge|    kind: deployment|variants: {layout: 1x2};"
            + " 4; kind is trainjob, pytorchjob or mpijob, not \"deployment\"",
        "where:|  kubernetes:|    namespace: ml|variants: {layout: 1x2}; 2; kubernetes: needs"
            + " instance: (to plan each variant) or manifest:",
        "device: tpu|variants: {layout: 1x2}; 1; device is auto, cpu or gpu, not \"tpu\"",
        "timeout: soon|variants: {layout: 1x2}; 1; timeout: must be seconds, or a number with s, m or"
            + " h (90, 10m), not \"soon\"",
        "name: x; 1; no variants: (layout, nodes, network, env, offload, repeats)",
      })
  void aBadSpecIsOneLineWithItsFileAndLine(String text, int line, String problem) throws Exception {
    Path f = spec(text);
    assertThatThrownBy(() -> SpecReader.read(f))
        .isInstanceOf(InputProblem.class)
        .hasMessage(f + ":" + line + ": " + problem.replace("DIR", dir.toString()));
  }

  @Test
  void readsEveryPartOfALocalSpec() throws Exception {
    Path f =
        spec(
            """
            name: layouts
            run: probe+train
            where: local
            device: cpu
            timeout: 10m
            env: {NCCL_DEBUG: INFO}
            train: "{python} train.py --offload {offload}"
            probe:
              collectives: all_reduce
              minBytes: 1M
              maxBytes: 1G
              stepFactor: 4
              iters: 7
              pairs: true
            variants:
              layout: [1x4, 2x2]
              env:
                - {}
                - NCCL_P2P_DISABLE=1 NCCL_PROTO=simple
              offload: [none, cpu]
            """
                .replace('\n', '|'));
    ExperimentSpec s = SpecReader.read(f);
    assertThat(s.name()).isEqualTo("layouts");
    assertThat(s.run()).isEqualTo(ExperimentSpec.Run.PROBE_THEN_TRAIN);
    assertThat(s.where()).isEqualTo(new ExperimentSpec.Local("cpu"));
    assertThat(s.timeout()).isEqualTo(Duration.ofMinutes(10));
    assertThat(s.train()).containsExactly("{python}", "train.py", "--offload", "{offload}");
    assertThat(s.probe().toArgs())
        .containsExactly(
            "--collectives",
            "all_reduce",
            "-b",
            "1M",
            "-e",
            "1G",
            "-f",
            "4",
            "-w",
            "5",
            "-n",
            "7",
            "--pairs");
    assertThat(s.variants())
        .extracting(Variant::name)
        .containsExactly(
            "1x4-offload-none",
            "1x4-offload-cpu",
            "1x4-NCCL_P2P_DISABLE=1,NCCL_PROTO=simple-offload-none",
            "1x4-NCCL_P2P_DISABLE=1,NCCL_PROTO=simple-offload-cpu",
            "2x2-offload-none",
            "2x2-offload-cpu",
            "2x2-NCCL_P2P_DISABLE=1,NCCL_PROTO=simple-offload-none",
            "2x2-NCCL_P2P_DISABLE=1,NCCL_PROTO=simple-offload-cpu");
    assertThat(s.variants().get(2).env())
        .isEqualTo(Map.of("NCCL_P2P_DISABLE", "1", "NCCL_PROTO", "simple"));
    assertThat(s.variants().get(2).dirName())
        .isEqualTo("1x4-NCCL_P2P_DISABLE=1_NCCL_PROTO=simple-offload-none");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "[1x2, 2x1]; [1]; 1; 1x2 1x2|2x1 2x1",
        "2x2; [1, 2]; 1; 2x2-1n 2x2|2x2-2n 2x2",
        "[1x1]; [1]; 3; 1x1-r1 1x1|1x1-r2 1x1|1x1-r3 1x1",
      })
  void theMatrixIsTheCrossProductNamedByWhatVaries(
      String layouts, String nodes, int repeats, String expected) throws Exception {
    Path f =
        spec("variants:|  layout: " + layouts + "|  nodes: " + nodes + "|  repeats: " + repeats);
    List<Variant> vs = SpecReader.read(f).variants();
    assertThat(vs)
        .extracting(v -> v.name() + " " + v.layout())
        .containsExactly(expected.split("\\|"));
    assertThat(vs).allMatch(v -> v.ranks() == v.layout().ranksPerNode() * v.nodes());
  }

  @Test
  void aListOfMatricesRunsEachAndNamesByWhatVariesAcrossThem() throws Exception {
    Path f =
        spec(
            "variants:|  - layout: [1x4, 4x1]|    offload: [none, cpu]|  - layout: 1x4|"
                + "    env: {NCCL_P2P_DISABLE: 1}|    offload: none");
    assertThat(SpecReader.read(f).variants())
        .extracting(Variant::name)
        .containsExactly(
            "1x4-offload-none",
            "1x4-offload-cpu",
            "4x1-offload-none",
            "4x1-offload-cpu",
            "1x4-NCCL_P2P_DISABLE=1-offload-none");
    Path bad = spec("variants:|  - layout: 1x4|  - layout: 4x1|    nodes: [two]");
    assertThatThrownBy(() -> SpecReader.read(bad))
        .hasMessage(bad + ":4: nodes must be a whole number of at least 1, not \"two\"");
  }

  static Stream<Path> examples() throws Exception {
    return Files.list(Path.of("../examples/experiment"))
        .filter(p -> p.toString().endsWith(".yaml"))
        .sorted();
  }

  /** Every example spec of the repository reads. */
  @ParameterizedTest
  @MethodSource("examples")
  void everyExampleReads(Path example) throws Exception {
    ExperimentSpec s = SpecReader.read(example);
    assertThat(s.variants()).isNotEmpty();
  }

  @Test
  void aKubernetesSpecReadsWithPlansSettings() throws Exception {
    Path f =
        spec(
            "where:|  kubernetes:|    instance: g6e.12xlarge|    namespace: ml|    image: img:1|"
                + "    kind: pytorchjob|variants:|  layout: [1x4, 4x1]|  network: [efa, eni]");
    ExperimentSpec s = SpecReader.read(f);
    assertThat(s.where())
        .isEqualTo(
            new ExperimentSpec.Kubernetes(
                "g6e.12xlarge", "ml", "img:1", "pytorchjob", null, null, null));
    assertThat(s.variants())
        .extracting(Variant::name)
        .containsExactly("1x4-efa", "1x4-eni", "4x1-efa", "4x1-eni");
  }
}
