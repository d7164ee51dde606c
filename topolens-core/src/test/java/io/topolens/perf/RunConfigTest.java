package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** YAML configurations and the checks that turn them into scenarios. */
class RunConfigTest {
  private static final HardwareCatalog CATALOG = HardwareCatalog.builtIn();

  @TempDir Path tmp;

  private Path yaml(String text) throws Exception {
    Path p = tmp.resolve("c.yaml");
    Files.writeString(p, text);
    return p;
  }

  private static Scenario scenario(RunConfig c) throws InputProblem {
    return c.toScenario(CATALOG, ModelPresets.bundled(), "test").scenario();
  }

  @Test
  void seedRunsExample() throws Exception {
    List<RunConfig> runs = ScenarioFile.read(Path.of("../examples/perf/seed-runs.yaml"));
    assertThat(runs)
        .extracting(RunConfig::name)
        .containsExactly(
            "p4d 1 pod x 4 GPUs (NVLink)",
            "p4d 4 pods x 1 GPU (EFA)",
            "4 x g6e.12xlarge EFA",
            "4 x g6e.12xlarge ENI");
    Scenario eni = scenario(runs.get(3));
    assertThat(eni.cluster().ranks()).isEqualTo(16);
    assertThat(eni.cluster().network()).isEqualTo(PathKind.TCP);
    assertThat(eni.cluster().intra()).isEqualTo(PathKind.SHM);
    assertThat(eni.workload().strategy()).isEqualTo(Strategy.ZERO3);
    assertThat(eni.workload().offload()).isEqualTo(Offload.FULL);
    assertThat(eni.workload().microBatch()).isEqualTo(4);
    assertThat(eni.workload().gradAccum()).isEqualTo(4);
    assertThat(eni.workload().seq()).isEqualTo(512);
    assertThat(eni.workload().checkpointing()).isTrue();
    assertThat(runs.get(3).measured().jobS()).isEqualTo(5408.85);
  }

  @Test
  void singleRunAndDefaults() throws Exception {
    RunConfig c = ScenarioFile.read(yaml("model: mistral-7b\ninstance: p5.48xlarge\n")).get(0);
    RunConfig.Checked checked = c.toScenario(CATALOG, ModelPresets.bundled(), "c.yaml");
    assertThat(checked.scenario().cluster().layout()).isEqualTo("1x8");
    assertThat(checked.scenario().name()).isEqualTo("p5.48xlarge 1n 1x8 DDP");
    assertThat(checked.defaulted())
        .containsExactly(
            "layout 1x8 (one pod with every GPU of the node)",
            "strategy DDP",
            "sequence length 2048",
            "micro-batch 1",
            "gradient accumulation 1",
            "100 steps");
  }

  @Test
  void commandLineOverridesTheFile() throws Exception {
    RunConfig file =
        ScenarioFile.read(yaml("model: llama-3-8b\ninstance: p4d.24xlarge\nzero: 3\nseq: 512\n"))
            .get(0);
    RunConfig cli = RunConfig.fromMap(Map.of("seq", 4096, "strategy", "fsdp"), "command line");
    Scenario s = scenario(file.merge(cli));
    assertThat(s.workload().seq()).isEqualTo(4096);
    assertThat(s.workload().strategy()).isEqualTo(Strategy.FSDP);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "model: llama-3-8b\\ninstance: p4d.24xlarge\\nmicrobatch: 2\\n|c.yaml:3: the file: Unrecognized field \"microbatch\"",
        "runs: []\\n|c.yaml: runs must be a non-empty list",
        "runs:\\n  - model: x\\nextra: 1\\n|c.yaml: unknown top-level key \"extra\" beside runs (defaults, runs, about)",
        "- a\\n- b\\n|c.yaml: expected keys (a mapping) at the top",
        "model: [1, 2\\n|c.yaml:1: not YAML: while parsing a flow sequence",
        // fuzz seed 6 #3039: a NullPointerException
        "defaults:\\nruns:\\n  - model: x\\n|c.yaml:1: defaults is not a mapping",
        "defaults: 3\\nruns:\\n  - model: x\\n|c.yaml:1: defaults is not a mapping",
      })
  void badFiles(String text, String message) throws Exception {
    Path p = yaml(text.replace("\\n", "\n"));
    assertThatThrownBy(() -> ScenarioFile.read(p))
        .isInstanceOf(InputProblem.class)
        .hasMessageStartingWith(message.replace("c.yaml", p.toString()));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "instance=p4d.24xlarge|test: no model: give --model (llama-3-8b, llama-3-70b, mistral-7b) or all of --params, --layers and --hidden",
        "model=llama-3-8b|test: no instance type (--instance)",
        "model=gpt-9;instance=p4d.24xlarge|test: unknown model \"gpt-9\" (presets: llama-3-8b, llama-3-70b, mistral-7b; or give --params, --layers and --hidden)",
        "model=llama-3-8b;instance=p9.huge|test: unknown instance type \"p9.huge\"",
        "model=llama-3-8b;instance=p4d.24xlarge;layout=4by1|test: layout \"4by1\" is not PODSxGPUS (e.g. 1x4 or 4x1)",
        "model=llama-3-8b;instance=p4d.24xlarge;network=carrier-pigeon|test: unknown path \"carrier-pigeon\" (nvlink, pcie, shm, efa, ib, tcp or eni)",
        "model=llama-3-8b;instance=p4d.24xlarge;zero=4|test: unknown strategy \"4\"",
        "model=llama-3-8b;instance=p4d.24xlarge;mfu=1.5|test: MFU must be in (0, 1], not 1.5",
        "model=llama-3-8b;instance=p4d.24xlarge;offload=disk|test: unknown offload \"disk\" (none, optimizer or cpu)",
      })
  void badConfigurations(String pairs, String message) throws Exception {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    for (String kv : pairs.split(";")) {
      String[] p = kv.split("=", 2);
      m.put(p[0], p[1]);
    }
    RunConfig c = RunConfig.fromMap(m, "test");
    assertThatThrownBy(() -> scenario(c))
        .isInstanceOf(InputProblem.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void wrongValueTypeNamesTheKey() {
    assertThatThrownBy(() -> RunConfig.fromMap(Map.of("seq", "long"), "command line"))
        .isInstanceOf(InputProblem.class)
        .hasMessageStartingWith(
            "command line: Cannot deserialize value of type `java.lang.Integer`");
  }
}
