package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.topolens.catalog.HardwareCatalog;
import io.topolens.nccl.InputProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code zero3.moduleHookS} fitted to the public runs' DeepSpeed timers (DS-1635), and the seeds
 * judged with and without it.
 */
class Zero3HookFitTest {
  private static final Path EXAMPLES = Path.of("../examples/perf");
  private static Zero3HookFit.Report report;

  @BeforeAll
  static void run() throws Exception {
    report =
        new Zero3HookFit(HardwareCatalog.builtIn(), PerfConstants.bundled())
            .of(
                EXAMPLES.resolve("public-deepspeed-runs.yaml"),
                EXAMPLES.resolve("public-deepspeed-catalog.json"),
                EXAMPLES.resolve("seed-runs.yaml"));
  }

  /**
   * One public run has timers that split forward and backward (issue 1635: 376.60 + 864.56 ms); its
   * 147 modules (24 GPT-2-like layers) x 2 passes share what the model does not price there.
   */
  @Test
  void theFitRestsOnIssue1635sTimers() {
    assertThat(report.runs()).hasSize(1);
    Zero3HookFit.Run r = report.runs().get(0);
    assertThat(r.name()).contains("1635");
    assertThat(r.fwdBwdS()).isCloseTo(0.37660 + 0.86456, within(1e-9));
    assertThat(r.modules() * r.passes() * r.gradAccum()).isEqualTo(294);
    assertThat(r.perFetchS())
        .isCloseTo((r.fwdBwdS() - r.pricedS()) / 294, within(r.perFetchS() * 1e-6));
    // one run: no leave-one-out
    assertThat(r.looS()).isNull();
    assertThat(r.looError()).isNull();
    // a longer sequence leaves less to the hooks, a shorter one more
    assertThat(r.doubleSeqS()).isLessThan(r.perFetchS());
    assertThat(r.halfSeqS()).isGreaterThan(r.perFetchS());
  }

  /** The shipped constant is the fit, to the digits perf-model.json keeps. */
  @Test
  void theShippedConstantIsTheFit() {
    assertThat(report.fitted()).isNotNull();
    assertThat(report.shipped()).isCloseTo(report.fitted(), within(report.fitted() * 0.005));
  }

  /**
   * The seeds are held out: each is predicted with the term and without it; the term never shortens
   * a job, and its seconds per step are the seed's fetches x the constant.
   */
  @Test
  void theSeedsAreJudgedWithAndWithoutTheTerm() {
    assertThat(report.seeds()).hasSize(4);
    for (Zero3HookFit.Seed s : report.seeds()) {
      assertThat(s.measuredS()).isPositive();
      assertThat(s.withS()).isGreaterThanOrEqualTo(s.withoutS() - 1e-9);
      assertThat(s.fetchesPerStep()).isEqualTo(291 * 3 * 4);
      assertThat(s.hooksS()).isCloseTo(s.fetchesPerStep() * report.shipped(), within(1e-9));
      // the job grows by at most the term over its 50 steps
      assertThat(s.withS() - s.withoutS()).isLessThanOrEqualTo(50 * s.hooksS() + 1e-6);
    }
    // the NVLink run, whose collectives hide under compute, takes the whole term; it is still short
    Zero3HookFit.Seed nvlink = report.seeds().get(0);
    assertThat(nvlink.name()).contains("NVLink");
    assertThat(nvlink.withS() - nvlink.withoutS()).isCloseTo(50 * nvlink.hooksS(), within(1.0));
    assertThat(nvlink.withS()).isLessThan(nvlink.measuredS());
  }

  /** Timers on a run that is not ZeRO-3 fit no hooks: one line naming the file and the run. */
  @Test
  void timersOnAZero2RunAreRefused(@TempDir Path dir) throws Exception {
    Files.copy(
        Path.of("../bench/results/public-deepspeed/ds-1635-cpu-adam-avx512.log"),
        dir.resolve("t.log"));
    Path yaml = dir.resolve("runs.yaml");
    Files.writeString(
        yaml,
        """
        runs:
          - name: z2
            params: 1350000000
            layers: 24
            hidden: 2048
            zero: 2
            instance: p4d.24xlarge
            measured: {stepS: 1.0, source: test, timers: t.log}
        """);
    assertThatThrownBy(
            () ->
                new Zero3HookFit(HardwareCatalog.builtIn(), PerfConstants.bundled())
                    .of(
                        yaml,
                        EXAMPLES.resolve("public-deepspeed-catalog.json"),
                        EXAMPLES.resolve("seed-runs.yaml")))
        .isInstanceOf(InputProblem.class)
        .hasMessageContaining("runs.yaml")
        .hasMessageContaining("z2")
        .hasMessageContaining("not ZeRO-3");
  }
}
