package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * proxy.cc's service and progress threads failing or losing a local rank. Sources of the texts:
 * nccl/messages/README.md.
 */
class ProxyErrorRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "an operation the proxy failed, then the rank it lost (proxy.cc, 2.28.3)",
                """
                node-a:4021:4095 [3] proxy.cc:1522 NCCL WARN [Proxy Service 3] Failed to execute operation Connect from rank 3, retcode 3
                node-a:4021:4095 [3] proxy.cc:1643 NCCL WARN [Service thread] Could not receive type from localRank 2, res=3, closed=1
                """)
            .expect(error("retcode", "Read the lines printed before").at("a.log:1", "a.log:2")),
        given(
                "a rank that lost its proxy",
                """
                node-a:4021:4090 [1] proxy.cc:1135 NCCL WARN ncclProxyCallBlockingUDS call to tpRank 1(7f2a5c) failed : 6
                """)
            .expect(error("proxy thread").at("a.log:1")),
        given(
            "the proxy out of file descriptors is resource-limit's",
            """
            node-a:4021:4095 [3] proxy.cc:1600 NCCL WARN [Service thread] Accept failed Too many open files
            """),
        given(
            "the proxy's INFO lines of a healthy run",
            """
            node-a:4021:4095 [3] NCCL INFO [Proxy Service] Device 3 CPU core 12
            node-a:4021:4096 [3] NCCL INFO [Proxy Progress] Device 3 CPU core 14
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new ProxyError(), "proxy-error", c);
  }
}
