package io.topolens.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.topolens.Fixtures;
import io.topolens.nccl.InputProblem;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Step times of real excerpts of every framework (public/steps/README.md gives the sources). */
class StepTimesTest {

  private static StepTimes read(String resource) throws InputProblem {
    return StepTimes.readAll(List.of(Fixtures.path(resource)));
  }

  static Stream<Arguments> excerpts() {
    return Stream.of(
        // file, framework, derivation, median, min, max, count, warm-up dropped, malformed
        arguments(
            "hf-seed001-g6e-efa-rank0-tail.log",
            Framework.HUGGING_FACE,
            Derivation.RATE,
            46.16,
            46.16,
            46.16,
            1,
            0,
            0),
        arguments(
            "hf-transformers-262-cut-bars.log",
            Framework.HUGGING_FACE,
            Derivation.RATE,
            5.97,
            5.97,
            5.97,
            1,
            1,
            1),
        arguments(
            "hf-alignment-handbook-63-loss-dicts.log",
            Framework.HUGGING_FACE,
            Derivation.RATE,
            3857.31,
            3857.31,
            3857.31,
            1,
            0,
            0),
        arguments(
            "hf-llamafactory-10488-train-metrics.log",
            Framework.HUGGING_FACE,
            Derivation.RATE,
            1 / 0.185,
            1 / 0.185,
            1 / 0.185,
            1,
            0,
            0),
        arguments(
            "lightning-4225-epoch-bars.log",
            Framework.LIGHTNING,
            Derivation.RATE,
            4.47,
            4.14,
            5.82,
            5,
            2,
            1),
        arguments(
            "deepspeed-1825-steps-per-print.log",
            Framework.DEEPSPEED,
            Derivation.INTERVAL,
            1.5144,
            1.5144,
            1.5144,
            1,
            1,
            0),
        arguments(
            "deepspeed-3742-megatron-ds-timers.log",
            Framework.MEGATRON,
            Derivation.INTERVAL,
            4.1031,
            4.1031,
            4.1031,
            1,
            0,
            0),
        arguments(
            "deepspeed-accelerate-1589-timers-and-bar.log",
            Framework.HUGGING_FACE,
            Derivation.RATE,
            1 / 1.09,
            1 / 1.09,
            1 / 1.09,
            1,
            1,
            0),
        arguments(
            "megatron-ds-alcf-sunspot-fwd-bwd.log",
            Framework.MEGATRON,
            Derivation.INTERVAL,
            20.2983,
            20.2983,
            20.2983,
            1,
            1,
            0),
        arguments(
            "megatron-756-iterations.log",
            Framework.MEGATRON,
            Derivation.INTERVAL,
            5.6262,
            5.5338,
            5.7186,
            2,
            1,
            0),
        arguments(
            "torchtitan-3393-steps.log",
            Framework.TORCHTITAN,
            Derivation.INTERVAL,
            1.1215,
            1.119,
            1.127,
            6,
            1,
            0),
        arguments(
            "torchtitan-2389-eight-ranks.log",
            Framework.TORCHTITAN,
            Derivation.INTERVAL,
            1.637,
            1.637,
            1.637,
            1,
            0,
            0),
        arguments(
            "json-fsdp-step-h100.jsonl",
            Framework.JSON_LINES,
            Derivation.MEASURED,
            0.13117,
            0.12244,
            0.14316,
            7,
            1,
            0),
        arguments(
            "json-fsdp-summary-h200-p2p.log",
            Framework.JSON_LINES,
            Derivation.MEASURED,
            0.096,
            0.0906,
            0.1029,
            7,
            1,
            0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("excerpts")
  void summarisesEachFrameworksLines(
      String file,
      Framework framework,
      Derivation derivation,
      double median,
      double min,
      double max,
      int count,
      int warmup,
      int malformed)
      throws InputProblem {
    StepSummary s = read("public/steps/" + file).summary().orElseThrow();
    assertThat(s.framework()).isEqualTo(framework);
    assertThat(s.derivation()).isEqualTo(derivation);
    assertThat(s.median()).isCloseTo(median, within(1e-9));
    assertThat(s.min()).isCloseTo(min, within(1e-9));
    assertThat(s.max()).isCloseTo(max, within(1e-9));
    assertThat(s.count()).isEqualTo(count);
    assertThat(s.warmupDropped()).isEqualTo(warmup);
    assertThat(s.malformed()).isEqualTo(malformed);
    assertThat(s.example().file()).endsWith(file);
  }

  static Stream<Arguments> otherDerivations() {
    return Stream.of(
        // file, framework, derivation, every step time of that kind (warm-up first when marked)
        arguments(
            "hf-seed001-g6e-efa-rank0-tail.log",
            Framework.HUGGING_FACE,
            Derivation.TOTAL,
            List.of(2307.9654 / 50)),
        arguments(
            "deepspeed-3742-megatron-ds-timers.log",
            Framework.DEEPSPEED,
            Derivation.PARTS,
            List.of((652.41 + 2164.52 + 1172.13) / 1000)),
        arguments(
            "deepspeed-accelerate-1589-timers-and-bar.log",
            Framework.DEEPSPEED,
            Derivation.PARTS,
            List.of((27.41 + 73.44 + 72.82) / 1000, (27.46 + 73.60 + 72.60) / 1000)),
        arguments(
            "megatron-ds-alcf-sunspot-fwd-bwd.log",
            Framework.DEEPSPEED,
            Derivation.PARTS,
            List.of((6567.66 + 17950.35 + 1139.29) / 1000, (4022.73 + 15738.66 + 371.02) / 1000)),
        arguments(
            "megatron-ds-alcf-sunspot-fwd-bwd.log",
            Framework.DEEPSPEED,
            Derivation.INTERVAL,
            List.of(20.307)));
  }

  @ParameterizedTest(name = "{0} {2}")
  @MethodSource("otherDerivations")
  void keepsTheLessDirectTimesToo(
      String file, Framework framework, Derivation derivation, List<Double> seconds)
      throws InputProblem {
    List<Double> found =
        read("public/steps/" + file).steps().stream()
            .filter(s -> s.framework() == framework && s.derivation() == derivation)
            .map(StepTime::seconds)
            .toList();
    assertThat(found).hasSameSizeAs(seconds);
    for (int i = 0; i < seconds.size(); i++) {
      assertThat(found.get(i)).isCloseTo(seconds.get(i), within(1e-9));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("excerpts")
  void theNcclReaderPassesTheSameLines(String file) throws InputProblem {
    Path p = Fixtures.path("public/steps/" + file);
    StepTimeReader reader = new StepTimeReader();
    new io.topolens.nccl.NcclLogReader(1)
        .read(io.topolens.nccl.LogInput.expand(List.of(p.toString())), reader.lines());
    assertThat(reader.finish()).isEqualTo(StepTimes.readAll(List.of(p)));
  }

  @org.junit.jupiter.api.Test
  void seed004ShowsTheTrainerBeforeItsFirstStep() throws InputProblem {
    // rank 0 of the seeds' EKS job: the Trainer's banner and its bar at 0/1722 ("?it/s"), no rate
    StepTimes t = read("seeds/004-eks-g6e-efa-fallback.log");
    assertThat(t.lines()).isEqualTo(java.util.Map.of(Framework.HUGGING_FACE, 3L));
    assertThat(t.steps()).isEmpty();
    assertThat(t.summary()).isEmpty();
    assertThat(t.mainFramework()).isEqualTo(Framework.HUGGING_FACE);
  }

  @org.junit.jupiter.api.Test
  void malformedLinesAreCountedWithTheirLine() throws InputProblem {
    StepTimes t = read("public/steps/hf-transformers-262-cut-bars.log");
    assertThat(t.malformed().count()).isEqualTo(1);
    assertThat(t.malformed().samples().get(0).line()).isEqualTo(10);
    assertThat(t.malformed().samples().get(0).text())
        .startsWith("Hugging Face Trainer: progress bar cut off before its rate:");
  }

  /**
   * A real step line of each form with its step number widened past what a long holds (20 digits
   * and more): the line is counted as malformed with its line number, and the read goes on.
   */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.CsvSource({
    "public/steps/megatron-ds-alcf-sunspot-fwd-bwd.log, '] step=', DeepSpeed",
    "public/steps/torchtitan-3393-steps.log, 'step: ', torchtitan",
  })
  void aNumberTooLargeIsAMalformedLine(String resource, String before, String label)
      throws Exception {
    List<String> lines = java.nio.file.Files.readAllLines(Fixtures.path(resource));
    int at = -1;
    for (int i = 0; i < lines.size() && at < 0; i++) {
      if (lines.get(i).contains(before)) {
        at = i;
      }
    }
    assertThat(at).isNotNegative();
    String line = lines.get(at);
    int digits = line.indexOf(before) + before.length();
    lines.set(at, line.substring(0, digits) + "123456789012345678901" + line.substring(digits));
    Path widened = java.nio.file.Files.createTempFile("steps-wide", ".log");
    java.nio.file.Files.write(widened, lines);
    StepTimes t = StepTimes.readAll(List.of(widened));
    int lineNumber = at + 1;
    assertThat(t.malformed().samples())
        .anySatisfy(
            e -> {
              assertThat(e.line()).isEqualTo(lineNumber);
              assertThat(e.text()).startsWith(label + ": a number too large to read:");
            });
  }

  @org.junit.jupiter.api.Test
  void readsGzipAndSeveralFilesAsOneJob() throws Exception {
    Path dir = java.nio.file.Files.createTempDirectory("steps");
    Path gz = dir.resolve("titan.log.gz");
    try (var out = new java.util.zip.GZIPOutputStream(java.nio.file.Files.newOutputStream(gz))) {
      out.write(
          java.nio.file.Files.readAllBytes(
              Fixtures.path("public/steps/torchtitan-3393-steps.log")));
    }
    StepSummary s =
        StepTimes.read(List.of(gz, Fixtures.path("public/steps/torchtitan-2389-eight-ranks.log")))
            .orElseThrow();
    // 6 intervals of the first file and the one of the second, each file's first left out
    assertThat(s.count()).isEqualTo(6);
    assertThat(s.warmupDropped()).isEqualTo(2);
    assertThat(s.max()).isCloseTo(1.127, within(1e-9));
  }

  @org.junit.jupiter.api.Test
  void aMissingFileIsAProblemNamingIt() {
    Path missing = Path.of("no-such-dir", "train.log");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> StepTimes.read(List.of(missing)))
        .isInstanceOf(InputProblem.class)
        .hasMessageStartingWith(missing + ": cannot");
  }

  @org.junit.jupiter.api.Test
  void lineNumbersHoldAcrossTheNcclReadersBlocks() throws Exception {
    // 12 MiB: NCCL lines of a real log between JSON step lines, so blocks of 4 MiB cut through both
    List<String> nccl =
        java.nio.file.Files.readAllLines(Fixtures.path("seeds/001-g6e-shm-socket-libfabric.log"));
    Path big = java.nio.file.Files.createTempFile("steps-big", ".log");
    long step = 0;
    try (var w = java.nio.file.Files.newBufferedWriter(big)) {
      while (java.nio.file.Files.size(big) < 12L << 20) {
        for (int i = 0; i < 200; i++) {
          for (String l : nccl) {
            w.write(l);
            w.newLine();
          }
          step++;
          w.write("{\"step\": " + step + ", \"step_time\": " + (1 + step % 7) / 10.0 + "}");
          w.newLine();
        }
        w.flush();
      }
    }
    StepTimeReader reader = new StepTimeReader();
    new io.topolens.nccl.NcclLogReader(2)
        .read(io.topolens.nccl.LogInput.expand(List.of(big.toString())), reader.lines());
    StepTimes streamed = reader.finish();
    assertThat(streamed).isEqualTo(StepTimes.readAll(List.of(big)));
    assertThat(streamed.steps()).hasSize((int) step);
    StepTime last = streamed.steps().get(streamed.steps().size() - 1);
    assertThat(last.evidence().line()).isEqualTo(step * (nccl.size() + 1));
    assertThat(last.step()).isEqualTo(step);
    java.nio.file.Files.delete(big);
  }
}
