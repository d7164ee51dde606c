package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.topolens.perf.BenchLines.ThreadRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The host-threads sweep measured on two 2 x H100 machines (bench/results/h100x2-host-threads):
 * read by its keys beside the other bench lines, and judged by the numbers it holds.
 */
class HostThreadsSweepTest {
  private static final Path SWEEP = Path.of("../bench/results/h100x2-host-threads");
  private static HostThreadsSweep sweep;

  @BeforeAll
  static void read() throws Exception {
    sweep = HostThreadsSweep.of(BenchLines.read(List.of(SWEEP)));
  }

  @Test
  void everyRunIsReadAndNoneIsTakenForAOneGpuRun() throws Exception {
    BenchLines.Read data = BenchLines.read(List.of(SWEEP));
    // 30 runs on the first machine, 12 on the second; none is a bench/fsdp-step.py run
    assertThat(data.threadRuns()).hasSize(42);
    assertThat(data.runs()).isEmpty();
    assertThat(data.files()).isEmpty();
    assertThat(sweep.malformed()).isEmpty();
    assertThat(sweep.files()).hasSize(2);
    ThreadRun first = data.threadRuns().get(0);
    assertThat(first.shape()).isEqualTo("h2048-l16-s1024");
    assertThat(first.stepS()).isEqualTo(0.14859);
    assertThat(first.busy()).isCloseTo(1.0, within(1e-12));
    assertThat(first.host().oversubscribed()).isFalse();
  }

  @ParameterizedTest(name = "{0} {1}: {2} runs, median {3} s")
  @CsvSource({
    // file, setting, runs, median of the run medians (the file's own numbers)
    "host-threads-1.jsonl, 1, 3, 0.14859",
    "host-threads-1.jsonl, default, 3, 0.16437",
    "host-threads-1.jsonl, 1+spin32, 3, 0.28165",
    "host-threads-2.jsonl, 1, 6, 0.15729",
    "host-threads-2.jsonl, default, 6, 0.15728",
  })
  void settingsGroupTheirRuns(String file, String setting, int runs, double median) {
    HostThreadsSweep.Setting s =
        sweep.settings().stream()
            .filter(
                x ->
                    x.run().evidence().file().endsWith(file)
                        && x.run().shape().equals("h2048-l16-s1024")
                        && x.run().setting().equals(setting))
            .findFirst()
            .orElseThrow();
    assertThat(s.group().runs()).isEqualTo(runs);
    assertThat(s.group().medianS()).isCloseTo(median, within(1e-9));
  }

  @Test
  void threadsOverTheVcpusMoveTheHostBoundStepLessThanItsRunsSpread() {
    HostThreadsSweep.Effect e = sweep.effect("h2048-l16-s1024", f -> true);
    assertThat(e.within().runs()).isEqualTo(12);
    assertThat(e.over().runs()).isEqualTo(12);
    assertThat(e.within().medianS()).isCloseTo(0.149085, within(1e-9));
    assertThat(e.over().medianS()).isCloseTo(0.161305, within(1e-9));
    assertThat(e.overEffect())
        .isCloseTo(e.over().medianS() / e.within().medianS() - 1, within(1e-12));
    assertThat(e.within().spread()).isCloseTo(0.1767, within(1e-4));
    assertThat(e.overWithinSpread()).isTrue();
    // each rank ran one thread's worth of CPU: its 31 OpenMP workers slept
    assertThat(e.overThreadsIdle()).isTrue();
    assertThat(e.over().busyMax()).isLessThanOrEqualTo(HostThreadsSweep.IDLE_BUSY);
  }

  @Test
  void theComputeBoundShapeDoesNotMoveAndBusyCoProcessesSlowBoth() {
    HostThreadsSweep.Effect compute = sweep.effect("h4096-l8-s2048", f -> true);
    assertThat(Math.abs(compute.overEffect())).isLessThan(0.01);
    HostThreadsSweep.Effect host = sweep.effect("h2048-l16-s1024", f -> true);
    // with 32 spinning co-processes the ranks got about half a vCPU and the launches slowed
    assertThat(host.spinning().busyMin()).isLessThan(0.6);
    assertThat(host.spinEffect()).isGreaterThan(0.5);
    assertThat(compute.spinEffect()).isBetween(0.1, host.spinEffect());
  }

  @ParameterizedTest(name = "{0} is {1}x{2}x{3}: {4}")
  @CsvSource({
    "h2048-l16-s1024, 2048, 16, 1024, true",
    "h2048-l16-s1024, 2048, 16, 2048, false",
    "h4096-l8-s2048-ckpt, 4096, 8, 2048, true",
    "llama, 2048, 16, 1024, false",
  })
  void shapeNamesSayTheirDimensions(
      String shape, int hidden, int layers, int seq, boolean matches) {
    ThreadRun r = new ThreadRun(shape, "1", 2, 1, 32, 0, 0.1, 1.0, null);
    assertThat(r.shapeIs(hidden, layers, seq)).isEqualTo(matches);
  }

  @Test
  void aFailedRunIsCountedAndNamed(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("sweep.jsonl");
    Files.writeString(
        f,
        """
        {"shape": "h2048-l16-s1024", "setting": "1", "procs": 2, "rcs": [0, 0], "cpu_threads": 1, \
        "vcpus": 32, "spin": 0, "step_s_median": 0.15, "cpu_busy": [1.0, 1.0]}
        {"shape": "h2048-l16-s1024", "setting": "default", "procs": 2, "rcs": [1, -9], \
        "cpu_threads": 32, "vcpus": 32, "spin": 0, "steps": []}
        {"shape": "h2048-l16-s1024", "setting":
        """);
    BenchLines.Read data = BenchLines.read(List.of(f));
    HostThreadsSweep s = HostThreadsSweep.of(data);
    assertThat(s.runs()).hasSize(1);
    assertThat(s.malformed())
        .containsExactly(
            f + ":2: host-threads run without a step (exit codes [1,-9])", f + ":3: not JSON");
  }
}
