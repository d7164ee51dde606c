package io.topolens.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * GF-Bench (cuiboyuan/nccl_log_rca_bench, nccl/gf-bench/README.md) as a labelled benchmark: every
 * run this project holds, whole (nccl/gf-bench) or as set 28's excerpts, with its label and what
 * diagnose says of it (docs/findings.md, "GF-Bench"). A failure is named when the finding of its
 * class is there (a CUDA out-of-memory: cuda-out-of-memory; a straggler: rank-behind naming the
 * delayed rank); a normal run is judged right when no finding is an error. The exact ids are
 * asserted, so a finding that comes or goes on any run fails the row.
 */
class GfBenchTest {

  @ParameterizedTest(name = "{0} ({1})")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # resource | label | named | title of the naming finding, or - | every finding id
          gf-bench/normal_trial_2_iter10_timeout60_20260715_002044 | normal | true | - | p2p-unavailable env-override
          gf-bench/normal_trial_1_iter10_timeout60_20260323_001503 | normal | true | - | p2p-unavailable env-override
          heldout/set28/o20-healthy-normal-run-ten-all-reduces-two-gpus-shm-abort-on-exit-gf-bench.log | normal | true | - | p2p-unavailable env-override missing-ranks
          gf-bench/oom_trial_1_1_2_20260715_001529 | cuda_oom rank 1 | true | A rank ran out of GPU memory (the framework's allocation) | cuda-out-of-memory p2p-unavailable env-override
          gf-bench/oom_trial_1_0_2_20260323_005000 | cuda_oom rank 0 | true | A rank ran out of GPU memory (the framework's allocation) | cuda-out-of-memory p2p-unavailable env-override
          heldout/set28/o01-injected-cuda-oom-rank0-iteration3-two-gpus-gf-bench.log | cuda_oom rank 0 | true | A rank ran out of GPU memory (the framework's allocation) | cuda-out-of-memory p2p-unavailable env-override
          gf-bench/slow_trial_1_0_6_20260715_001542 | gpu_straggler rank 0 | true | Rank 0 never called the collective rank 1 waited in | p2p-unavailable env-override rank-behind
          gf-bench/slow_trial_1_0_12_20260323_011947 | gpu_straggler rank 0 | true | Rank 0 never called the collective rank 1 waited in | p2p-unavailable env-override rank-behind
          gf-bench/slow_trial_1_1_6_20260715_001745 | gpu_straggler rank 1 | true | Rank 1 never called the collective rank 0 waited in | p2p-unavailable env-override rank-behind
          heldout/set28/o02-injected-straggler-rank1-six-second-delay-global-timeout-gf-bench.log | gpu_straggler rank 1 | false | - | p2p-unavailable env-override missing-ranks
          """)
  void diagnosesEachLabelledRun(
      String resource, String label, boolean named, String title, String ids) {
    Diagnosis d = Diagnoser.standard().diagnose(Fixtures.observe("nccl/" + resource));

    assertThat(d.findings().stream().map(Finding::id).distinct().toList())
        .containsExactlyElementsOf(List.of(ids.split(" ")));
    if (label.equals("normal")) {
      assertThat(d.findings()).noneMatch(f -> f.severity() == Severity.ERROR);
    } else if (named) {
      assertThat(d.findings()).extracting(Finding::title).contains(title);
    } else {
      // o02 holds the delayed rank's log alone: no finding names a slow rank
      assertThat(d.findings()).noneMatch(f -> f.id().equals("rank-behind"));
    }
  }
}
