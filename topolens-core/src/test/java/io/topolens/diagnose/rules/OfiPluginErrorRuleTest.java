package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.excerpt;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class OfiPluginErrorRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "GDR off on a GDR instance, init failed, the log ends there",
                excerpt("ofi-gdr-disabled-init-failed-source-format.log"))
            .expect(
                error(
                        "aws-ofi-nccl (the EFA plugin) failed to initialise",
                        "the log ends before NCCL chose a network",
                        "refuses to run without it")
                    .lacks("endpoint was rejected")
                    .at("a.log:1", "a.log:2")),
        given(
                "endpoint refused with Invalid argument, then init failed, pasted without headers",
                """
                nccl_net_ofi_domain_get_ep:969 NCCL WARN NET/OFI Creating new endpoint for domain 0x7f9befa99380 failed: Invalid argument
                nccl_net_ofi_create_plugin:259 NCCL WARN NET/OFI aws-ofi-nccl initialization failed
                """)
            .expect(
                error("failed to initialise", "endpoint was rejected (Invalid argument)")
                    .lacks("refuses to run without it")
                    .at("a.log:1", "a.log:2")),
        given(
                "libfabric picked tcp: no EFA device in the container",
                excerpt("ofi-tcp-provider-aws-ofi-nccl-803.log"))
            .expect(
                error("libfabric chose a TCP provider instead of EFA", "/dev/infiniband/uverbs")
                    .at("a.log:11")),
        given(
                "memory registration -22 (EFA installer before 1.29.1)",
                excerpt("ofi-register-memory-einval-aws-ofi-nccl-584.log"))
            .expect(
                error("could not register memory", "1.29.1", "FI_EFA_SET_CUDA_SYNC_MEMOPS=0")
                    .at("a.log:1")),
        given(
                "memory registration out of memory (nccl#563)",
                """
                10.0.87.143: 10.0.87.143: ip-10-0-87-143:149:298 [5] register_mr_buffers:465 NCCL WARN NET/OFI Unable to register memory (type = 1) for device 0. RC: 12, Error: Cannot allocate memory
                """)
            .expect(
                error("could not register memory", "ulimit -l unlimited")
                    .lacks("1.29.1")
                    .at("a.log:1")),
        given(
                "no provider before aws-ofi-nccl 1.7, EFA not in the container"
                    + " (https://github.com/aws-samples/aws-efa-nccl-baseami-pipeline/issues/2)",
                """
                find_ofi_provider:543 NCCL WARN NET/OFI Couldn't find any optimal provider
                """)
            .expect(
                error("aws-ofi-nccl found no EFA device", "--device=/dev/infiniband")
                    .at("a.log:1")),
        given(
                "fi_getinfo ENODATA in 1.14 with a timestamp prefix"
                    + " (https://github.com/aws/aws-ofi-nccl/issues/1020)",
                """
                [2025-10-16 22:16:08] ip-172-31-3-90:1929:1937 [0] nccl_net_ofi_rdma_init:7978 NCCL WARN NET/OFI OFI fi_getinfo() call failed: No data available
                """)
            .expect(error("found no EFA device").at("a.log:1")),
        given(
                "libfabric's own answer on a host without an EFA device, as its maintainer quotes"
                    + " it (https://github.com/ofiwg/libfabric/pull/10794)",
                """
                - fi_info -p efa will return -61
                """)
            .expect(
                error("found no EFA device", "hostPath", "vpc.amazonaws.com/efa").at("a.log:1")),
        given(
                "fi_info's own error line, after the command, in a container without the EFA"
                    + " devices (https://github.com/aws/aws-ofi-nccl/issues/879)",
                """
                fi_info -p efa
                fi_getinfo: -61 (No data available)
                """)
            .expect(error("found no EFA device").at("a.log:2")),
        given(
            "another provider's ENODATA in libfabric's core log is no finding"
                + " (https://github.com/ofiwg/libfabric/issues/5787)",
            """
            libfabric:47889:core:core:fi_getinfo_():964<info> fi_getinfo: provider shm returned -61 (No data available)
            """),
        given(
            "the same for the utility providers (https://github.com/ofiwg/libfabric/issues/11256)",
            """
            libfabric:151205:1753871244::core:core:fi_getinfo_():1385<info> fi_getinfo: provider ofi_mrail returned -61 (No data available)
            """),
        given(
            "init failed, then NCCL used sockets: net-plugin-fallback's case",
            excerpt("ofi-init-failed-fallback-aws-ofi-nccl-715.log")),
        given(
                "the peer's EFA address refused, as the WARN of the CM (aws-ofi-nccl 1.15+)",
                """
                ip-10-1-2-3:812:901 [3] cm_av_insert:88 NCCL WARN NET/OFI CM: Unable to insert remote address into address vector for device. RC: Invalid argument
                """)
            .expect(
                error(
                        "aws-ofi-nccl could not reach the peer's EFA device",
                        "security group itself",
                        "Availability Zone")
                    .at("a.log:1")),
        given(
                "the same as PyTorch's last error, after the line that says so",
                """
                [rank1]: ncclInternalError: Internal check failed.
                [rank1]: Last error:
                [rank1]: NET/OFI Unable to insert remote address into address vector for device 1. RC: 0
                """)
            .expect(error("could not reach the peer's EFA device").at("a.log:3")),
        given(
            "an address vector created is not a failure",
            """
            ip-10-1-2-3:812:812 [0] NCCL INFO NET/OFI Creating address vector for device 0
            """),
        given(
            "libfabric picked efa",
            """
            ip-192-168-16-255:25655:25655 [0] NCCL INFO NET/OFI Selected Provider is efa;ofi_rxr
            """),
        given(
                "libfabric refusing a domain (nccl_ofi_ofiutils.cpp, aws-ofi-nccl 1.16; nccl/messages)",
                """
                node-a:4021:4090 [0] nccl_ofi_ofiutils.cpp:257 NCCL WARN NET/OFI Couldn't create domain. RC: -12, ERROR: Cannot allocate memory
                """)
            .expect(error("could not set up libfabric", "ulimit -l unlimited").at("a.log:1")),
        given(
                "an EFA send completed with RC 20 under the MPI Operator: the security group"
                    + " lacked its self-referencing rules (https://github.com/aws/aws-ofi-nccl/issues/156)",
                """
                [1,13]<stdout>:nccl-tests-worker-1:35:89 [5] ofi_process_cq:1039 NCCL WARN NET/OFI Request 0x7fbb944701b8 completed with error. RC: 20. Error: unknown error. Completed length: 0, Request: { buffer_index: 255, dev: 1, size: 0, state: CREATED, direction: SEND }
                [1,13]<stderr>:libfabric:35:1668017255::efa:cq:rxr_cq_write_tx_error():243<warn> rxr_cq_write_tx_error: err: 20, prov_err: Not a directory (20)
                """)
            .expect(
                error(
                        "An EFA transfer between nodes completed with an error",
                        "security group itself",
                        "fi_pingpong")
                    .at("a.log:1")),
        given(
                "aws-ofi-nccl 0.9-1.x could not open its address vector on a multi-node run"
                    + " (https://github.com/aws/aws-ofi-nccl/issues/24, its WARN line)",
                """
                [1,23]<stdout>:ip-172-32-45-165:72593:73427 [7] create_nccl_ofi_component:459 NCCL WARN NET/OFI Couldn't open AV. RC: -22, ERROR: Invalid argument
                """)
            .expect(
                error("could not set up libfabric for EFA", "-22 Invalid argument").at("a.log:1")),
        given(
                "libfabric 1.2x's EFA provider lists nothing (https://github.com/aws/aws-ofi-nccl/issues/889,"
                    + " its libfabric line as pasted from CloudWatch)",
                """
                  | 2025-05-16T16:39:51.208-07:00libfabric:85:1747438790::core:core:fi_getinfo_():1392<warn> fi_getinfo: provider efa output empty list
                """)
            .expect(
                error("EFA provider offered aws-ofi-nccl nothing", "FI_HMEM", "issue 889")
                    .at("a.log:1")),
        given(
            "libfabric's empty list, then the plugin went on over EFA: no finding (the 1.x retry"
                + " without GPUDirect; the libfabric line of https://github.com/aws/aws-ofi-nccl/issues/889,"
                + " aws-ofi-nccl's INFO lines of https://github.com/aws/aws-ofi-nccl/issues/161)",
            """
            libfabric:85:1747438790::core:core:fi_getinfo_():1392<warn> fi_getinfo: provider efa output empty list
            algo-1:462:462 [0] NCCL INFO NET/OFI Selected Provider is efa
            algo-1:462:462 [0] NCCL INFO Using network AWS Libfabric
            """),
        given(
            "libfabric's -61 for the EFA provider, then NCCL chose AWS Libfabric: no finding (the"
                + " libfabric line of https://github.com/aws/libfabric/issues/3, aws-ofi-nccl's INFO lines"
                + " of https://github.com/aws/aws-ofi-nccl/issues/161)",
            """
            libfabric:72089:core:core:fi_getinfo_():889<warn> fi_getinfo: provider efa returned -61 (No data available)
            algo-1:462:462 [0] NCCL INFO NET/OFI Selected Provider is efa
            algo-1:462:462 [0] NCCL INFO Using network AWS Libfabric
            """),
        given(
                "1.x posting a receive refused: not a completion (nccl_ofi_net.c @00b10af7's format,"
                    + " nccl/messages)",
                """
                node-a:4021:4090 [0] nccl_net_ofi_irecv:1 NCCL WARN NET/OFI Unable to post receive buffer for dev 0. RC: -22, ERROR: Invalid argument
                """)
            .expect(
                error("libfabric refused an EFA transfer between nodes", "security group itself")
                    .lacks("read an error completion")
                    .at("a.log:1")),
        given(
                "aws-ofi-nccl 1.6 over Slingshot's cxi provider could not open its domain: no EFA"
                    + " advice (https://github.com/aws/aws-ofi-nccl/issues/801, its lines with a host"
                    + " header)",
                """
                libfabric:507357:1741146011::cxi:fabric:cxip_nic_get_rgroup_vni():253<warn> : Failed to find valid default rgroup and vni for cxi0
                nid001:507357:507357 [0] NCCL INFO NET/OFI Selected Provider is cxi (found 8 nics)
                nid001:507357:507357 [0] NCCL INFO Using network AWS Libfabric
                nid001:507357:507401 [0] nccl_ofi_ofiutils.c:180 NCCL WARN NET/OFI Couldn't open a fabric access domain. RC: -38, ERROR: Function not implemented
                """)
            .expect(
                error("failed over libfabric's cxi provider", "not AWS EFA", "FI_LOG_LEVEL=warn")
                    .lacks("security group itself")
                    .at("a.log:4")),
        given(
                "1.7+'s protocol failure where the log stops (nccl_ofi_net.c's format as AWS Neuron's"
                    + " docs quote it, with NCCL's header)",
                """
                node-a:837617:837663 [2] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):219 NCCL WARN NET/OFI Failed to initialize rdma protocol
                """)
            .expect(error("failed to initialise").at("a.log:1")),
        given(
            "the teardown of 1.x's memory registration is not the plugin's failure (nccl_ofi_net.c"
                + " @00b10af7's format)",
            """
            node-a:4021:4090 [0] nccl_net_ofi_deregMr:1 NCCL WARN NET/OFI Unable to de-register memory. RC: -22, Error: Invalid argument
            """),
        given(
            "a channel over EFA is no error (https://github.com/NVIDIA/nccl/issues/1597, a line"
                + " of its log)",
            """
            8h200-2:14630:14695 [1] NCCL INFO Channel 05/0 : 0[0] -> 1[1] [receive] via NET/AWS Libfabric/1/GDRDMA
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new OfiPluginError(), "ofi-plugin-error", c);
  }
}
