package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** ibvwrap's ENOMEM on calls that pin memory: the locked-memory limit. */
class IbMemlockRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "ibv_reg_mr_iova2, the line alone (https://github.com/NVIDIA/nccl-tests/issues/206)",
                """
                misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory
                """)
            .expect(error("locked-memory limit", "ulimit -l unlimited").at("a.log:1")),
        given(
            "ibv_create_cq failed with no reason printed is ib-error's"
                + " (https://github.com/NVIDIA/nccl/issues/380)",
            """
            spark01:2683:2826 [0] misc/ibvwrap.cc:268 NCCL WARN Call to ibv_create_cq failed
            """),
        given(
            "ibv_modify_qp with another errno is ib-error's (IbErrorRuleTest's row)",
            """
            train-0:15483:15645 [0] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error No such device
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new IbMemlock(), "ib-memlock", c);
  }
}
