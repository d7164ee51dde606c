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
                "2.12-2.18's call to a local rank's proxy, after the socket under it closed"
                    + " (https://github.com/dmlc/xgboost/issues/7982)",
                """
                ip-172-31-12-104:28056:17126 [0] misc/socket.cc:523 NCCL WARN Net : Connection closed by remote peer ip-172-31-12-104.ap-southeast-1.compute.internal<36803>
                ip-172-31-12-104:28056:17126 [0] NCCL INFO misc/socket.cc:531 -> 2
                ip-172-31-12-104:28056:17126 [0] proxy.cc:808 NCCL WARN Proxy Call to rank 3 failed (Connect)
                """)
            .expect(error("proxy thread").at("a.log:3")),
        given(
                "the same after PyTorch's Last error:, NCCL 2.14.3 (a vLLM file of the code corpus"
                    + " quoting it; the PyTorch lines as ProcessGroupNCCL prints them)",
                """
                RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, internal error, NCCL version 2.14.3
                ncclInternalError: Internal check failed.
                Last error:
                Proxy Call to rank 8 failed (Connect)
                """)
            .expect(error("proxy thread").at("a.log:4")),
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
