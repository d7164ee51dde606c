package io.topolens.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.topolens.Fixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The findings (id:severity) for each measured H200 run and seed log, exactly. */
class FixtureFindingsTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        // P2P over NVLink, NVLS disabled by env (info only): healthy
        Arguments.of("fixtures/h200x4/ar-p2p.log", List.of("env-override:info")),
        Arguments.of("fixtures/h200x4/fsdp/p2p.log", List.of("env-override:info")),
        Arguments.of("fixtures/h200x4/fsdp/p2p-off.log", List.of("env-override:info")),
        // forced algorithm / protocol
        Arguments.of(
            "fixtures/h200x4/ar-ring.log",
            List.of("env-override:info", "env-override:warn", "env-override:warn")),
        // SHM because NCCL_P2P_DISABLE=1
        Arguments.of(
            "fixtures/h200x4/fsdp/shm.log",
            List.of("env-override:info", "env-override:warn", "p2p-unavailable:warn")),
        // sockets between GPUs of one host
        Arguments.of(
            "fixtures/h200x4/fsdp/sock.log",
            List.of(
                "env-override:info",
                "env-override:warn",
                "env-override:warn",
                "p2p-unavailable:warn",
                "same-host-over-network:error")),
        // seed 004: EFA plugin failed, fell back to TCP, 59.8 s bootstrap, only rank 0's log; the
        // plugin's WARN lines are cited by net-plugin-fallback, so none is left to nccl-warning
        Arguments.of(
            "seeds/004-eks-g6e-efa-fallback.log",
            List.of(
                "env-override:info",
                "inter-node-tcp:warn",
                "missing-ranks:warn",
                "missing-ranks:warn",
                "net-plugin-fallback:error",
                "one-rank-per-node:info",
                "slow-bootstrap:warn")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void findsExactly(String file, List<String> expected) {
    List<String> got =
        Diagnoser.standard().diagnose(Fixtures.read(file)).findings().stream()
            .map(f -> f.id() + ":" + f.severity().label())
            .sorted()
            .toList();
    assertThat(got).isEqualTo(expected.stream().sorted().toList());
  }
}
