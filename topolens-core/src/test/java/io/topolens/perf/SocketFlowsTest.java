package io.topolens.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A host's socket rate against the flows sharing it: (measured / flows)^(1 - exponent). */
class SocketFlowsTest {

  @ParameterizedTest(name = "{0} flows -> {1} flows, a = {2}: x{3}")
  @CsvSource({
    // a = 0: a fixed aggregate shared by the flows (4 flows' rate doubles among 2)
    "4, 2, 0, 2.0",
    "4, 4, 0, 1.0",
    "2, 4, 0, 0.5",
    // a = 1: flows that do not slow one another
    "4, 2, 1, 1.0",
    // the shipped 0.306: 2^0.694 = 1.6178 (section 4's 4 pods of 1 at 1.61x 2 pods of 2)
    "4, 2, 0.306, 1.6178",
    "2, 4, 0.306, 0.6181",
    "8, 2, 0.5, 2.0",
  })
  void perFlowScale(int measured, int flows, double exponent, double expected) {
    assertThat(SocketFlows.perFlowScale(measured, flows, exponent))
        .isCloseTo(expected, within(1e-4));
  }

  @ParameterizedTest(name = "{0} pods of {1}, sockets inside pods {2}: {3} flows")
  @CsvSource({
    "2, 2, false, 2", // the ring leaves each pod once; inside a pod NVLink
    "4, 1, false, 4", // one GPU per pod: every hop leaves a pod
    "1, 4, true, 4", // P2P and SHM off: every hop a socket
    "2, 2, true, 4",
  })
  void ringFlows(int pods, int gpusPerPod, boolean sockets, int expected) {
    assertThat(SocketFlows.ringFlows(pods, gpusPerPod, sockets)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({"0, 2", "4, 0"})
  void flowsArePositive(int measured, int flows) {
    assertThatThrownBy(() -> SocketFlows.perFlowScale(measured, flows, 0.3))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theShippedExponentIsSubLinearGrowth() {
    double a = PerfConstants.bundled().value(SocketFlows.EXPONENT);
    assertThat(a).isStrictlyBetween(0.0, 1.0);
  }
}
