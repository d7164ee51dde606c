package io.topolens.diagnose.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Severity;
import io.topolens.nccl.LogInput;
import io.topolens.nccl.NcclLogReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * rank-behind on NCCL's call lines (NCCL_DEBUG_SUBSYS=COLL) of real runs: GF-Bench's injected
 * straggler (both ranks' logs, nccl/gf-bench/README.md) is named; healthy runs, an OOM whose ranks
 * end at the same call, a log of one rank and logs with point-to-point calls are not.
 */
class RankBehindRuleTest {

  private static final String SLOW = "nccl/gf-bench/slow_trial_1_0_6_20260715_001542";

  @Test
  void namesTheRankThatNeverCalledTheCollectiveItsPeerWaitedIn() {
    List<Finding> f = new RankBehind().check(Fixtures.read(SLOW));

    assertThat(f)
        .singleElement()
        .satisfies(
            x -> {
              assertThat(x.severity()).isEqualTo(Severity.WARN);
              assertThat(x.title())
                  .isEqualTo("Rank 0 never called the collective rank 1 waited in");
              assertThat(x.explanation())
                  .contains(
                      "On communicator 0xa6abd45ad74b3dfc, rank 1 last called AllReduce opCount 0x11")
                  .contains("rank 0 (2e194b931ff6:15980) AllReduce opCount 0x10");
              assertThat(x.evidence())
                  .extracting(e -> Path.of(e.file()).getFileName() + ":" + e.line())
                  .containsExactly(
                      "nccl_logs_2e194b931ff6_15980.txt:138",
                      "nccl_logs_2e194b931ff6_15981.txt:104");
              assertThat(x.fix()).contains("rank 0 did after the last call");
            });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // healthy: both ranks end at opCount 0xa, then tear down
    "nccl/gf-bench/normal_trial_2_iter10_timeout60_20260715_002044",
    // an OOM on rank 1: both ranks' last call is opCount 3 (the harness's own reduction)
    "nccl/gf-bench/oom_trial_1_1_2_20260715_001529",
    // set 28's o02: the straggler's own log alone, nothing to compare it with
    "nccl/heldout/set28/o02-injected-straggler-rank1-six-second-delay-global-timeout-gf-bench.log",
    // healthy call traces of two ranks (torchtitan-1369, megatron-lm-275) and of four (FSDP)
    "nccl/heldout/set27/l12-healthy-coll-trace-allgather-reducescatter-tensor-parallel-two-h100s"
        + "-torchtitan-1369.log",
    "nccl/heldout/set27/l14-healthy-coll-broadcast-megatron-bert-two-a5000s-iterations-megatron"
        + "-lm-275.log",
    "fixtures/h200x4/verbose",
  })
  void saysNothingWhereEveryRankReachedTheSameCall(String resource) {
    assertThat(new RankBehind().check(Fixtures.read(resource))).isEmpty();
  }

  /**
   * Every healthy log of the held-out sets (each read alone, as a user would diagnose it): no
   * rank-behind. Guarded against passing on nothing: there are more than 40, and the two that hold
   * call lines of two ranks (set 27's l12 and l14, also rows above) are among them.
   */
  @Test
  void saysNothingOnAnyHealthyHeldOutLog() {
    List<Path> healthy =
        Fixtures.logs("src/test/resources/nccl/heldout")
            .filter(p -> p.getFileName().toString().contains("healthy"))
            .toList();
    int compared = 0;
    for (Path p : healthy) {
      io.topolens.model.Job job = new NcclLogReader(1).read(LogInput.expand(List.of(p.toString())));
      assertThat(new RankBehind().check(job)).as("%s", p).isEmpty();
      if (job.collectives().stream().map(c -> c.process()).distinct().count() > 1) {
        compared++;
      }
    }
    assertThat(healthy).hasSizeGreaterThan(40);
    assertThat(compared).isGreaterThanOrEqualTo(2);
  }

  /**
   * GF-Bench's normal run (both ranks end at opCount 0xa) with rank 0 then creating a communicator
   * of its own at the pointer its aborted one freed, later in a long log, and calling on it: the
   * new calls belong to the new communicator (its commId, opCount 0), not to the old one, on which
   * rank 0 did not fall behind.
   */
  @Test
  void aCommunicatorAtAFreedPointerIsANewOne(@TempDir Path dir) throws IOException {
    String normal = "nccl/gf-bench/normal_trial_2_iter10_timeout60_20260715_002044/";
    String p = "2e194b931ff6:18568:18568 [0] NCCL INFO ";
    for (String f :
        List.of("nccl_logs_2e194b931ff6_18568.txt", "nccl_logs_2e194b931ff6_18569.txt")) {
      List<String> lines = new java.util.ArrayList<>(Files.readAllLines(Fixtures.path(normal + f)));
      if (f.endsWith("18568.txt")) {
        // the training's own output, past the reader's block (4 MiB), so that the old calls and
        // the new ones are read in blocks of their own, as in a long log
        for (int i = 0; i < 200_000; i++) {
          lines.add("train step " + i + " loss 2.3456 lr 0.0001 tokens/s 12345.6");
        }
        String init =
            p
                + "comm 0x2d3eab50 rank 0 nranks 1 cudaDev 0 nvmlDev 0 busId 4f000 commId"
                + " 0x5d1c0e7a11f3b2c4 - Init ";
        lines.add(init + "START");
        lines.add(init + "COMPLETE");
        lines.add(
            p
                + "AllReduce: opCount 0 sendbuff 0x7f540e600200 recvbuff 0x7f540e600200 count 10"
                + " datatype 7 op 0 root 0 comm 0x2d3eab50 [nranks=1] stream 0x2b815ee0");
      }
      Files.write(dir.resolve(f), lines);
    }
    io.topolens.model.Job job = read(dir);

    assertThat(new RankBehind().check(job)).isEmpty();
    assertThat(job.collectives())
        .extracting(c -> c.commKey() + " rank " + c.rank() + " " + c.opCount())
        .containsExactlyInAnyOrder(
            "0x213df8ecb11a6d7c rank 0 10",
            "0x213df8ecb11a6d7c rank 1 10",
            "0x5d1c0e7a11f3b2c4 rank 0 0");
  }

  /** The straggler run with rank 1's last call cut off: both ranks end at opCount 0x10. */
  @Test
  void saysNothingWhenTheLastCallsAgree(@TempDir Path dir) throws IOException {
    copy(dir, l -> l.contains("opCount 11 ") ? null : l);
    assertThat(new RankBehind().check(read(dir))).isEmpty();
  }

  /**
   * The straggler run with rank 1's calls named Send: opCounts of point-to-point differ by design.
   */
  @Test
  void leavesOutCommunicatorsWithPointToPointCalls(@TempDir Path dir) throws IOException {
    copy(dir, l -> l.replace("NCCL INFO AllReduce: opCount 11 ", "NCCL INFO Send: opCount 11 "));
    assertThat(new RankBehind().check(read(dir))).isEmpty();
  }

  /** Copies the straggler run's rank logs, rank 1's lines through {@code edit} (null drops one). */
  private static void copy(Path dir, UnaryOperator<String> edit) throws IOException {
    for (String f :
        List.of("nccl_logs_2e194b931ff6_15980.txt", "nccl_logs_2e194b931ff6_15981.txt")) {
      List<String> lines = Files.readAllLines(Fixtures.path(SLOW + "/" + f));
      if (f.endsWith("15981.txt")) {
        lines = lines.stream().map(edit).filter(l -> l != null).toList();
      }
      Files.write(dir.resolve(f), lines);
    }
  }

  private static io.topolens.model.Job read(Path dir) {
    return new NcclLogReader(1).read(LogInput.expand(List.of(dir.toString())));
  }
}
