package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.rankOfTwo;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CollectiveTimeoutRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "ranks 0 and 4 time out in call 1580 (PyTorch 2.x)",
                excerpt("watchdog-same-call-llamafactory-7396.log"))
            .expect(
                error(
                        "Collective call #1580 (ALLREDUCE) timed out waiting for ranks that never reached it",
                        "466119168 elements in",
                        "timeout 600.0 s",
                        "Rank(s) 0, 4 reached it and waited",
                        "TORCH_NCCL_DUMP_ON_TIMEOUT=1")
                    .lacks("out of step", "reported no timeout")
                    .at("a.log:1", "a.log:2")),
        given(
                "rank 7 in BROADCAST, rank 3 in ALLREDUCE at the same call: out of step",
                excerpt("watchdog-different-ops-nccl-1409.log"))
            .expect(
                error(
                        "Ranks ran different collectives at call #80078 (BROADCAST / ALLREDUCE) and timed out",
                        "BROADCAST on rank(s) 7; ALLREDUCE on rank(s) 3",
                        "out of step")
                    .at("a.log:1", "a.log:3")),
        given("PyTorch 1.x form without element counts", excerpt("watchdog-old-format-ofa-271.log"))
            .expect(
                error(
                        "Collective call #469508 (ALLREDUCE)",
                        "timeout 1800.0 s",
                        "Rank(s) 1, 2, 3, 6, 7 reached it")
                    .lacks("elements in")
                    .at("a.log:1", "a.log:2", "a.log:3", "a.log:4", "a.log:5")),
        given(
                "TORCH_NCCL_BLOCKING_WAIT's form alone: the caller timed out in blocking wait"
                    + " (https://github.com/huggingface/diffusers/issues/12422)",
                """
                [rank7]:[E1002 18:16:40.663182067 ProcessGroupNCCL.cpp:756] [Rank 7] Work WorkNCCL(SeqNum=2521, OpType=ALLREDUCE, NumelIn=160672064, NumelOut=160672064, Timeout(ms)=600000) timed out in blocking wait.
                """)
            .expect(
                error("Collective call #2521 (ALLREDUCE) timed out", "Rank(s) 7").at("a.log:1")),
        given(
            "the watchdog's summary lines alone name no call",
            """
                [80748] [rank0]:[E321 02:07:08.465150152 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.
                """),
        given(
            "a healthy job",
            rankOfTwo(0, "node-a", 1, "P2P/CUMEM/read"),
            rankOfTwo(1, "node-a", 1, "P2P/CUMEM/read")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new CollectiveTimeoutRule(), "collective-timeout", c);
  }

  /** With NCCL's lines at hand the size of the group is known: the silent ranks are named. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("silentCases")
  void namesSilentRanks(Case c) {
    Logs.check(new CollectiveTimeoutRule(), "collective-timeout", c);
  }

  static Stream<Case> silentCases() {
    return Stream.of(
        given(
                "rank 1 of 2 never reached call 5",
                rankOfTwo(0, "node-a", 1, "P2P/CUMEM/read")
                    + "[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught"
                    + " collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1,"
                    + " NumelOut=1, Timeout(ms)=600000) ran for 600013 milliseconds before timing out.\n")
            .expect(
                error("Rank(s) 1 of 2 reported no timeout: they did not reach call #5")
                    .at("a.log:8")));
  }
}
