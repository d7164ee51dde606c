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
                "ibv_reg_mr with EPERM: a limit of 0 (2.28.3 misc/ibvwrap.cc:173's format; Linux"
                    + " drivers/infiniband/core/umem.c's ib_umem_get returns -EPERM when"
                    + " !can_do_mlock())",
                """
                node-a:4021:4090 [0] misc/ibvwrap.cc:173 NCCL WARN Call to ibv_reg_mr failed with error Operation not permitted
                """)
            .expect(
                error("locked-memory limit", "EPERM", "CAP_IPC_LOCK", "IPC_LOCK capability")
                    .lacks("Cannot allocate memory (ENOMEM)")
                    .at("a.log:1")),
        given(
                "ibv_reg_mr_iova2, the line alone (https://github.com/NVIDIA/nccl-tests/issues/206)",
                """
                misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory
                """)
            .expect(error("locked-memory limit", "ulimit -l unlimited").at("a.log:1")),
        given(
                "libfabric's EFA provider aborting with ENOMEM, its whole report"
                    + " (https://github.com/ofiwg/libfabric/pull/10538)",
                """
                Libfabric EFA provider has encountered an internal error:

                Libfabric error: (-12) Cannot allocate memory
                EFA internal error: (4112) Failure to post internal receive buffers
                """)
            .expect(
                error("libfabric's EFA provider", "--ulimit memlock=-1:-1", "inside the container")
                    .at("a.log:3")),
        given(
                "the EFA provider's log: registration and the event queue's report"
                    + " (https://github.com/aws/aws-ofi-nccl/issues/141)",
                """
                libfabric:718892:1658904526::efa:mr:efa_mr_regattr():632<warn> Unable to register MR: Cannot allocate memory
                libfabric:718892:1658904526::efa:cq:rxr_ep_grow_rx_pkt_pools():1585<warn> cannot allocate memory for EFA's RX packet pool. error: Cannot allocate memory
                libfabric:718892:1658904526::efa:eq:efa_eq_write_error():676<warn> Unable to write to EQ: Missing or unavailable event queue. err: Cannot allocate memory (-12) prov_errno: Cannot allocate memory (-12)
                """)
            .expect(error("2 line(s) of 2 distinct form(s)", "EFA").at("a.log:1", "a.log:3")),
        given(
            "another libfabric error of the EFA provider is not the limit"
                + " (libfabric prov/efa/src/efa_base_ep.c's format)",
            """
            Libfabric error: (-5) Input/output error
            """),
        given(
            "aws-ofi-nccl's own ENOMEM stays ofi-plugin-error's (OfiPluginErrorRuleTest's row)",
            """
            node-a:4021:4090 [0] nccl_ofi_ofiutils.cpp:257 NCCL WARN NET/OFI Couldn't create domain. RC: -12, ERROR: Cannot allocate memory
            """),
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
