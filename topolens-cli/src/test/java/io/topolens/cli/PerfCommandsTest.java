package io.topolens.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code topolens predict}, {@code compare} and {@code validate-model} end to end: exit codes,
 * stdout, one stderr line on bad input, the JSON shape. Runs from topolens-cli, so the examples and
 * the core's fixtures are one folder up.
 */
class PerfCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FIXTURES = "../topolens-core/src/test/resources/fixtures/h200x4/";
  private static final String SEED =
      "--model llama-3-8b --seq 512 --grad-accum 4 --steps 50 --zero 3 --offload cpu --checkpointing";

  @TempDir Path tmp;

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  private static CliRun line(String args) {
    return run(args.trim().split("\\s+"));
  }

  @Test
  void predictText() {
    CliRun r =
        line(
            "predict "
                + SEED
                + " --instance g6e.12xlarge --nodes 4 --layout 1x4 --network eni --micro-batch 4");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "Step ([0-9.]+) s   Job (?:(\\d+):)?(\\d+):(\\d\\d) \\(50 steps\\)")
            .matcher(r.out());
    assertThat(m.find()).as(r.out()).isTrue();
    // the job is 50 steps, to the precision the step is printed with (h:mm:ss past an hour)
    double job =
        (m.group(2) == null ? 0 : Integer.parseInt(m.group(2)) * 3600)
            + Integer.parseInt(m.group(3)) * 60
            + Integer.parseInt(m.group(4));
    assertThat(job)
        .isCloseTo(
            50 * Double.parseDouble(m.group(1)), org.assertj.core.api.Assertions.within(3.0));
    assertThat(r.out())
        .contains(
            "Bottleneck: Communication-bound: the collectives move 180.68 GB per GPU per step over"
                + " TCP sockets at 2.68 GB/s bus bandwidth")
        .contains("reduce_scatter (gradients)")
        .contains("CPU optimizer");
  }

  @Test
  void predictVerboseListsSources() {
    CliRun r = line("predict -v " + SEED + " --instance p4d.24xlarge --layout 1x4 --micro-batch 1");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("Sources")
        .contains("NCCL-TOPO-H    https://github.com/NVIDIA/nccl/blob/")
        .contains("LLAMA3-8B      https://huggingface.co/meta-llama/Meta-Llama-3-8B")
        .contains(
            "NCCL model: 12 NVLinks x 20 GB/s = 240 GB/s; ring search: 12 channels x 20 GB/s = 240 GB/s");
  }

  @Test
  void predictFitsDeepSpeedTermsToTimersAndSaysSo() {
    CliRun ok =
        line(
            "predict -v "
                + SEED
                + " --instance p4d.24xlarge --layout 1x4 --micro-batch 1 --deepspeed-timers"
                + " ../topolens-core/src/test/resources/public/steps/megatron-ds-alcf-sunspot-fwd-bwd.log");
    assertThat(ok.code()).as(ok.err()).isZero();
    assertThat(ok.out())
        .contains("fitted: framework time ")
        .contains("megatron-ds-alcf-sunspot-fwd-bwd.log:4: forward 4.023 s + backward 15.739 s")
        .contains("fitted: CPU optimizer rate ");
  }

  @Test
  void predictJson() throws Exception {
    CliRun r =
        line(
            "predict --format json "
                + SEED
                + " --instance p4d.24xlarge --layout 4x1 --network efa --micro-batch 1");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = JSON.readTree(r.out());
    assertThat(j.get("schema").asInt()).isEqualTo(1);
    assertThat(j.get("kind").asText()).isEqualTo("prediction");
    double terms = 0;
    for (JsonNode t : j.get("breakdown")) {
      terms += t.get("seconds").asDouble();
    }
    assertThat(j.get("stepSeconds").asDouble()).isPositive().isCloseTo(terms, within(1e-6));
    assertThat(j.at("/communicator/nodes").asInt()).isEqualTo(4);
    assertThat(j.at("/communicator/intra").isNull()).isTrue();
    assertThat(j.at("/communicator/inter/path").asText()).isEqualTo("efa");
    assertThat(j.at("/communicator/inter/busBwGBps").asDouble()).isEqualTo(10.0);
    assertThat(j.get("collectives")).hasSize(3);
    assertThat(j.at("/collectives/0/op").asText()).isEqualTo("all_gather");
    assertThat(j.at("/breakdown/0/kind").asText()).isEqualTo("compute");
    assertThat(j.get("sources").size()).isGreaterThan(5);
    assertThat(j.at("/configuration/layout").asText()).isEqualTo("4x1");
  }

  @Test
  void predictWithCalibration() {
    CliRun r =
        line(
            "predict --catalog ../examples/perf/h200x4-catalog.json --instance h200x4-vm"
                + " --params 852559872 --layers 16 --hidden 2048 --seq 1024 --micro-batch 4"
                + " --strategy fsdp --reduce-dtype fp32 --intra shm -v --calibrate "
                + FIXTURES
                + "ar-shm.log "
                + FIXTURES
                + "ag-shm.log");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .contains(
            "calibrated from " + FIXTURES + "ar-shm.log, " + FIXTURES + "ag-shm.log: 26.02 GB/s")
        .contains("defaults used:");
  }

  @Test
  void compareTheIssueExample() throws Exception {
    CliRun r =
        line(
            "compare --instance g6e.12xlarge --nodes 4 --layouts 1x4,4x1 --network efa,eni --zero 3"
                + " --offload cpu --model llama-3-8b --seq 512 --micro-batch 4 --grad-accum 4"
                + " --steps 50 --checkpointing --format json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = JSON.readTree(r.out());
    assertThat(j.get("kind").asText()).isEqualTo("comparison");
    assertThat(j.get("rows")).hasSize(4);
    assertThat(j.get("best").asText()).isEqualTo("g6e.12xlarge 4n 1x4 efa ZeRO-3 offload cpu");
    assertThat(j.at("/rows/2/ratio").asDouble())
        .isCloseTo(
            j.at("/rows/2/stepSeconds").asDouble() / j.at("/rows/0/stepSeconds").asDouble(),
            within(1e-6))
        .isGreaterThan(1);
    assertThat(j.at("/rows/2/reason").asText()).contains("EFA at 2.5 GB/s against EFA at 10 GB/s");
  }

  @Test
  void compareSeedRunsFromYaml() {
    CliRun r = line("compare --config ../examples/perf/seed-runs.yaml");
    assertThat(r.code()).as(r.err()).isZero();
    // the fastest is the run the seeds measured fastest: 4 pods of 1 over EFA, 1695 s against the
    // NVLink pod's 1787 s (the NVLink pod's one CPU thread per process, and ZeRO-3's module hooks,
    // which the EFA run's collectives overlap)
    assertThat(r.out())
        .contains("topolens compare: 4 configurations")
        .contains("* p4d 4 pods x 1 GPU (EFA)")
        .contains("  p4d 1 pod x 4 GPUs (NVLink)");
  }

  @Test
  void predictOneRunOfAFile() {
    CliRun r =
        line("predict --config ../examples/perf/seed-runs.yaml --run p4d 1 pod x 4 GPUs (NVLink)");
    // The run name has spaces: split above breaks it, so pass it whole.
    CliRun r2 =
        run(
            "predict",
            "--config",
            "../examples/perf/seed-runs.yaml",
            "--run",
            "4 x g6e.12xlarge EFA");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r2.code()).as(r2.err()).isZero();
    assertThat(r2.out()).startsWith("4 x g6e.12xlarge EFA: llama-3-8b on 16 x NVIDIA L40S");
  }

  @Test
  void validateModelWritesTheDoc() throws Exception {
    Path out = tmp.resolve("v.md");
    CliRun r =
        run(
            "validate-model",
            "../bench/results/h100-1gpu",
            "--fixtures",
            FIXTURES,
            "--examples",
            "../examples/perf",
            "--out",
            out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    String md = Files.readString(out);
    assertThat(md)
        .startsWith("# Model validation")
        .contains("| one-GPU step times without offload, held out | worst ")
        .contains("| nccl-tests busbw, sizes >= 16 MiB, after calibration | ")
        .contains("## 1. One GPU: compute and offload terms")
        .contains("## Explanations");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "predict --model llama-3-8b --instance p9.huge|topolens: command line: unknown instance type \"p9.huge\"",
        "predict --model llama-3-8b --instance p4d.24xlarge --layout four|topolens: command line: layout \"four\" is not PODSxGPUS (e.g. 1x4 or 4x1)",
        "predict --instance p4d.24xlarge|topolens: command line: no model: give --model",
        "predict --model llama-3-8b --instance p4d.24xlarge --offload cpu|topolens: DDP has no CPU offload; use --zero 1, 2 or 3, or --strategy fsdp",
        "predict --model llama-3-8b --instance p4d.24xlarge --calibrate /nonexistent/ar.log|topolens: /nonexistent/ar.log: ",
        "predict --model llama-3-8b --instance p4d.24xlarge --calibrate "
            + FIXTURES
            + "ar-p2p-json.log|topolens: "
            + FIXTURES
            + "ar-p2p-json.log: no NCCL_DEBUG=INFO connection lines say which path the run took",
        "predict --model llama-3-8b --instance p4d.24xlarge --calibrate "
            + FIXTURES
            + "ar-tree.log|topolens: "
            + FIXTURES
            + "ar-tree.log: every run forces NCCL_ALGO/NCCL_PROTO away from Ring/Simple",
        "predict --model llama-3-8b --instance p4d.24xlarge --catalog /nonexistent.json|topolens: /nonexistent.json: no such file",
        "predict --config ../examples/perf/seed-runs.yaml|topolens: ../examples/perf/seed-runs.yaml has 4 runs: pick one with --run NAME",
        "predict --config /nonexistent.yaml|topolens: /nonexistent.yaml: no such file",
        "compare --model llama-3-8b --instance p4d.24xlarge --network efa,pigeon --nodes 2|topolens: command line: unknown path \"pigeon\"",
        "validate-model --fixtures /nonexistent|topolens: /nonexistent: no such directory",
        "validate-model --fixtures "
            + FIXTURES
            + " --examples ../examples/perf --repeats ../bench/results/h200x2-deep-shm-repeat"
            + "|topolens: 1 folders of repeated runs but 0 configurations",
        "validate-model --fixtures "
            + FIXTURES
            + " --examples ../examples/perf --repeats ../examples/perf --repeats-config"
            + " ../examples/perf/h200x2-heldout-deep-runs.yaml"
            + "|topolens: ../examples/perf: no results.json under it (topolens experiment)",
      })
  void badInputIsOneLineAndExitTwo(String args, String start) {
    CliRun r = line(args);
    assertThat(r.code()).as(r.out()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.errLines().get(0)).startsWith(start);
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void optionOfTheWrongTypeIsAUsageError() {
    CliRun r = line("predict --model llama-3-8b --instance p4d.24xlarge --seq many");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines().get(0))
        .isEqualTo("Invalid value for option '--seq': 'many' is not an int");
    assertThat(r.err()).doesNotContain("Exception");
  }

  @Test
  void badYamlKeyNamesTheLine() throws Exception {
    Path p = tmp.resolve("bad.yaml");
    Files.writeString(p, "model: llama-3-8b\ninstance: p4d.24xlarge\nseqlen: 512\n");
    CliRun r = run("predict", "--config", p.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.errLines())
        .singleElement()
        .asString()
        .startsWith("topolens: " + p + ":3: the file: Unrecognized field \"seqlen\"");
  }
}
