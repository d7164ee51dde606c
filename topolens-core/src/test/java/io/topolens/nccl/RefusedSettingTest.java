package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Detail;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NCCL's refusals of a setting it fails on, read as the setting's (not the fabric's) with the
 * variable, value, device and range they name. Formats of NVIDIA/nccl 2.29's
 * src/transport/net_ib/connect.cc and the 2.28-2.29 net_ib.cc with the function's name
 * (nccl/messages/README.md); no public log holds them yet.
 */
class RefusedSettingTest {

  static Stream<Arguments> lines() {
    return Stream.of(
        Arguments.of(
            "NET/IB: NCCL_IB_SUBNET_PREFIX_LEN=40 is out of range [1,32]",
            new Detail.RefusedSetting("NCCL_IB_SUBNET_PREFIX_LEN", "40", null, "[1,32]")),
        Arguments.of(
            "NET/IB: NCCL_IB_SUBNET_PREFIX_LEN=-1 is out of range [1,32]",
            new Detail.RefusedSetting("NCCL_IB_SUBNET_PREFIX_LEN", "-1", null, "[1,32]")),
        Arguments.of(
            "NET/IB: OOO RQ is force enabled but AR is not enabled, which is required for OOO RQ (device=mlx5_0)",
            new Detail.RefusedSetting("NCCL_IB_OOO_RQ", null, "mlx5_0", null)),
        Arguments.of(
            "NET/IB: OOO RQ is force enabled but not supported on both sides of the connection (device=mlx5_3, localOooRq=1, remOooRq=0)",
            new Detail.RefusedSetting("NCCL_IB_OOO_RQ", null, "mlx5_3", null)),
        Arguments.of(
            "NET/IB: ncclIbSenderQpsCreate: OOO RQ is force enabled but AR is not enabled, which is required for OOO RQ (device=mlx5_bond_0)",
            new Detail.RefusedSetting("NCCL_IB_OOO_RQ", null, "mlx5_bond_0", null)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lines")
  void readsTheRefusedSetting(String message, Detail detail) {
    NcclEvent.Warning w = WarningClassifier.warning("transport/net_ib/connect.cc:1", message);
    assertThat(w.kind()).isEqualTo(NcclWarning.Kind.ENV_REFUSED);
    assertThat(w.detail()).isEqualTo(detail);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("otherIbLines")
  void leavesTheFabricsOwnLines(String message) {
    assertThat(WarningClassifier.warning("transport/net_ib/connect.cc:1", message).kind())
        .isEqualTo(NcclWarning.Kind.IB);
  }

  static Stream<String> otherIbLines() {
    return Stream.of(
        "NET/IB: read failed in ncclIbRoceGetVersionNum: Input/output error",
        "NET/IB : Got completion from peer 10.0.0.12<43567> with error 12, opcode 0, len 0, vendor err 129");
  }
}
