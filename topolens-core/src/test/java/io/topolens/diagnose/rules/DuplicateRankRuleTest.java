package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DuplicateRankRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given("rank 3 checked in twice", excerpt("duplicate-rank-source-format.log"))
            .expect(error("Two processes claim the same NCCL rank", "--node_rank").at("a.log:1")),
        given(
            "the bootstrap root saw every rank once",
            """
            node-a:4012:4090 [0] NCCL INFO Bootstrap timings total 0.038246 (create 0.000058, send 0.000149, recv 0.037439, ring 0.000114, delay 0.000000)
            """),
        given(
                "ranks that disagree on the size (bootstrap.cc:330, 2.28.3; nccl/messages)",
                """
                node-a:4021:4090 [0] bootstrap.cc:330 NCCL WARN Bootstrap Root : mismatch in info from procs, nranks 8 vs 16, nroots 1 vs 1, iroot 0 vs 0
                """)
            .expect(error("disagree on its size", "WORLD_SIZE").at("a.log:1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new DuplicateRank(), "duplicate-rank", c);
  }
}
