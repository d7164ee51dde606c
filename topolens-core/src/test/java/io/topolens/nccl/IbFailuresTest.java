package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.model.NcclWarning.Detail.VerbsCall;
import java.net.Inet4Address;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A verbs call's GIDs read as addresses by the reader, so that ib-error judges typed values rather
 * than the GIDs' text: RoCE v2's IPv4-mapped GIDs give their IPv4 address, other GIDs none.
 */
class IbFailuresTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // 2.28.3 misc/ibvwrap.cc:302's format, IbErrorRuleTest's cross-subnet case
        "local GID ::ffff:192.168.100.1, remote GID ::ffff:192.168.101.3 | 192.168.100.1 192.168.101.3",
        // the same addresses in hexadecimal groups, as inet_ntop may print a mapped GID
        "local GID ::ffff:c0a8:6401, remote GID ::FFFF:C0A8:6503 | 192.168.100.1 192.168.101.3",
        // InfiniBand's link-local GIDs map no IPv4 address
        "local GID fe80::248a:703:49c:9a10, remote GID fe80::248a:703:49c:9a11 | ''",
        // one end mapped, the other not: no pair of addresses
        "local GID ::ffff:10.0.0.11, remote GID fe80::1 | ''",
      })
  void gidsReadAsAddresses(String gids, String addresses) {
    VerbsCall c =
        (VerbsCall)
            IbFailures.read(
                "Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr"
                    + " state INIT, next state RTR, local GID index 3, "
                    + gids);
    assertThat(c.gids()).hasSize(2);
    assertThat(String.join(" ", c.addresses().stream().map(Inet4Address::getHostAddress).toList()))
        .isEqualTo(addresses);
  }
}
