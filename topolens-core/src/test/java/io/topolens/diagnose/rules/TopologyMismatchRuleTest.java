package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** graph/rings.cc's check that the rings the ranks computed join up. */
class TopologyMismatchRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "pdsh prefix, two ranks of one node (https://github.com/NVIDIA/nccl/issues/520)",
                """
                compute-dy-p4d24xlarge-5: compute-dy-p4d24xlarge-5:3048:4991 [2] graph/rings.cc:38 NCCL WARN Error : ring 2 does not loop back to start (7 != 2)
                compute-dy-p4d24xlarge-5: compute-dy-p4d24xlarge-5:3048:4991 [2] NCCL INFO graph/connect.cc:281 -> 3
                compute-dy-p4d24xlarge-5:
                compute-dy-p4d24xlarge-5: compute-dy-p4d24xlarge-5:3049:4987 [3] graph/rings.cc:38 NCCL WARN Error : ring 2 does not loop back to start (2 != 3)
                """)
            .expect(
                error(
                        "Ranks computed different rings",
                        "2 line(s) of 1 distinct form(s), from up to 2 process(es).",
                        "NCCL_HOSTID")
                    .at("a.log:1")),
        given(
                "NCCL_HOSTID set, 2.12 (https://github.com/NVIDIA/nccl/issues/879)",
                """
                pytorch card-16-final-4509-master-0:22789:28201 [0] graph/rings.cc:38 NCCL WARN Error : ring 0 does not loop back to start (14 != 0)
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
            "the rings as NCCL prints them are no error (https://github.com/NVIDIA/nccl/issues/879)",
            """
            pytorch card-16-final-4509-master-0:22789:28201 [0] NCCL INFO Channel 00/02 : 0 3 6 7 14 15 0 3 6 7 14 15 0 3 6 7
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new TopologyMismatch(), "topology-mismatch", c);
  }
}
