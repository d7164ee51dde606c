package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Detail.OfiFailure;
import io.topolens.model.NcclWarning.OfiStep;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What aws-ofi-nccl (and libfabric under it) failed at, read from the words of each release: the
 * same failure in 1.0-1.6's nccl_ofi_net.c, 1.7-1.13's ofiutils.c and 1.14-1.17's C++ gives the
 * same step and errno. Sources: nccl/messages/README.md (the rows of messages.tsv).
 */
class OfiFailuresTest {

  static Stream<Arguments> messages() {
    return Stream.of(
        // https://github.com/aws/aws-ofi-nccl/issues/24 (0.9-1.x)
        Arguments.of(
            "NET/OFI Couldn't open AV. RC: -22, ERROR: Invalid argument", OfiStep.SETUP, 22),
        // nccl_ofi_ofiutils.cpp (1.16): the same object, the same reading
        Arguments.of(
            "NET/OFI Couldn't open AV. RC: -12, ERROR: Cannot allocate memory", OfiStep.SETUP, 12),
        // nccl_ofi_net.c @00b10af7 (1.x): fi_getinfo's other errors
        Arguments.of("NET/OFI OFI call failed with RC -22, Invalid argument", OfiStep.SETUP, 22),
        Arguments.of(
            "NET/OFI Couldn't open a fabric provider. RC: -61, ERROR: No data available",
            OfiStep.SETUP,
            61),
        // the endpoint in 1.x and 1.14 (issue 889: no RC, the error text only)
        Arguments.of(
            "NET/OFI Couldn't allocate endpoint. RC: -22, ERROR: Invalid argument",
            OfiStep.ENDPOINT,
            22),
        Arguments.of(
            "NET/OFI Creating new endpoint for domain 0x7f9befa99380 failed: Invalid argument",
            OfiStep.ENDPOINT,
            22),
        // no EFA provider: 1.7+, before 1.7, 1.x built for EFA only, 1.14+
        Arguments.of(
            "NET/OFI OFI fi_getinfo() call failed: No data available", OfiStep.NO_PROVIDER, 61),
        Arguments.of("NET/OFI Couldn't find any optimal provider", OfiStep.NO_PROVIDER, 0),
        Arguments.of("NET/OFI Only EFA provider is supported", OfiStep.NO_PROVIDER, 0),
        Arguments.of(
            "NET/OFI Unable to find a protocol that worked.  Failing initialization.",
            OfiStep.NO_PROVIDER,
            0),
        // libfabric's core: https://github.com/aws/aws-ofi-nccl/issues/889,
        // https://github.com/aws/libfabric/issues/3
        Arguments.of(
            "libfabric:85:1747438790::core:core:fi_getinfo_():1392<warn> fi_getinfo: provider efa output empty list",
            OfiStep.EFA_NO_MATCH,
            0),
        Arguments.of(
            "libfabric:72089:core:core:fi_getinfo_():889<warn> fi_getinfo: provider efa returned -61 (No data available)",
            OfiStep.NO_PROVIDER,
            61),
        // the TCP provider where EFA should be: 1.x's INFO line, its filter, its tag check
        Arguments.of("NET/OFI Selected Provider is tcp (found 1 nics)", OfiStep.TCP_PROVIDER, 0),
        Arguments.of(
            "NET/OFI No viable endpoint found for TCP provider. Try and relax the filters using"
                + " OFI_NCCL_USE_IPV6_TCP or OFI_NCCL_EXCLUDE_TCP_IF environment variables",
            OfiStep.TCP_PROVIDER,
            0),
        Arguments.of(
            "NET/OFI Provider tcp does not provide enough tag bits 16 for ring ID. Minimum required"
                + " is 20",
            OfiStep.TCP_PROVIDER,
            0),
        // another provider's tag bits are a set-up failure
        Arguments.of(
            "NET/OFI Provider efa does not provide enough tag bits 16 for ring ID. Minimum required"
                + " is 20",
            OfiStep.SETUP,
            0),
        Arguments.of(
            "NET/OFI Unable to insert remote address into address vector for device 1. RC: 0",
            OfiStep.PEER_UNREACHABLE,
            0),
        // https://github.com/aws/aws-ofi-nccl/issues/161 (1.3.0): libfabric's err, not an RC
        Arguments.of(
            "NET/OFI Request 0x7f2a5c001000 completed with error. RC: 21. Error: unknown error."
                + " Completed length: 0, Request: { buffer_index: 3, dev: 0, size: 0, state:"
                + " CREATED, direction: RECV }",
            OfiStep.COMPLETION_ERROR,
            21),
        Arguments.of(
            "NET/OFI Unable to read from fi_cq_readerr. RC: -5. Error: Input/output error",
            OfiStep.POST_FAILED,
            5),
        Arguments.of(
            "NET/OFI Unable to post receive buffer for dev 0. RC: -22, ERROR: Invalid argument",
            OfiStep.POST_FAILED,
            22),
        // register memory: https://github.com/aws/aws-ofi-nccl/issues/584, 1.x's flush buffer
        Arguments.of(
            "NET/OFI Unable to register memory (type = 2) for device 0. RC: -22, Error: Invalid"
                + " argument",
            OfiStep.REGISTER_MEMORY,
            22),
        Arguments.of(
            "NET/OFI Could not register dummy buffer for flush, dev: 0",
            OfiStep.REGISTER_MEMORY,
            0),
        Arguments.of(
            "NET/OFI GDR disabled on GDR-supported instance type p4d.24xlarge",
            OfiStep.GDR_REQUIRED,
            0),
        Arguments.of("NET/OFI aws-ofi-nccl initialization failed", OfiStep.INIT_FAILED, 0),
        // 1.7+: the protocol's own failure before it (nccl_ofi_net.c, nccl_ofi_net.cpp)
        Arguments.of("NET/OFI Failed to initialize rdma protocol", OfiStep.PROTOCOL_FAILED, 0),
        Arguments.of("NET/OFI Failed to create NCCL OFI topology", OfiStep.SETUP, 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("messages")
  void readsTheStepOfEachRelease(String message, OfiStep step, int errno) {
    assertThat(OfiFailures.read(message)).isEqualTo(new OfiFailure(step, errno));
  }

  static Stream<String> noFailure() {
    return Stream.of(
        // teardown, where the failure is an earlier line's (nccl_ofi_net.c @00b10af7)
        "NET/OFI Unable to de-register memory. RC: -22, Error: Invalid argument",
        // INFO lines of a healthy plugin (OfiPluginErrorRuleTest)
        "NET/OFI Selected Provider is efa;ofi_rxr",
        "NET/OFI Creating address vector for device 0",
        // https://github.com/aws/aws-ofi-nccl/issues/161: EFA without RDMA read, the plugin goes on
        "libfabric:462:1673041636:efa:core:rxr_info_to_rxr():506<warn> FI_HMEM capability requires"
            + " RDMA, which this device does not support.");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("noFailure")
  void readsNothingWhereNothingFailed(String message) {
    assertThat(OfiFailures.read(message)).isNull();
  }

  /** The WARN line and the same text pasted without its header read alike. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("messages")
  void withoutItsHeaderTheSame(String message, OfiStep step, int errno) {
    NcclEvent.Warning w = WarningClassifier.warning("", message);
    assertThat(w.kind()).isEqualTo(NcclWarning.Kind.NET_PLUGIN);
    assertThat(w.detail()).isEqualTo(new OfiFailure(step, errno));
  }
}
