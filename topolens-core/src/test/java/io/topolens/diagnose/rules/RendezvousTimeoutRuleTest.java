package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PyTorch's TCPStore rendezvous that timed out, from the server's and from a client's side, and a
 * rank that waited in the store for rank 0's NCCL unique id.
 */
class RendezvousTimeoutRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "the store's count of clients that joined, a title"
                    + " (https://github.com/OpenRLHF/OpenRLHF/issues/1040)",
                """
                torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 1/3 clients joined.
                """)
            .expect(
                error("Ranks never met at the rendezvous (TCPStore timed out)", "MASTER_PORT")
                    .at("a.log:1")),
        given(
                "a client that never reached the store, c10d's logger and TCPStore's retry"
                    + " (https://github.com/lzhxmu/CPPO/issues/6)",
                """
                [E521 15:43:02.707733876 socket.cpp:1023] [c10d] The client socket has timed out after 600000ms while trying to connect to (172.18.21.4, 37907).
                [E521 15:43:02.707888867 TCPStore.cpp:318] [c10d] TCP client failed to connect/validate to host 172.18.21.4:37907 - timed out (try=1, timeout=600000ms): The client socket has timed out after 600000ms while trying to connect to (172.18.21.4, 37907).
                Exception raised from throwTimeoutError at /pytorch/torch/csrc/distributed/c10d/socket.cpp:1025 (most recent call first):
                """)
            .expect(error("2 line(s) of 2 distinct form(s)").at("a.log:1", "a.log:2")),
        given(
                "Windows, torchrun on one GPU (https://github.com/meta-llama/llama/issues/617)",
                """
                NOTE: Redirects are currently not supported in Windows or MacOs.
                [E ..\\torch\\csrc\\distributed\\c10d\\socket.cpp:860] [c10d] The client socket has timed out after 900s while trying to connect to (127.0.0.1, 29500).
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:2")),
        given(
                "a rank waiting for rank 0's ncclUniqueId in the store, a pytest log"
                    + " (https://github.com/InternLM/InternEvo/issues/285)",
                """
                  E       RuntimeError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout
                  E       Exception raised from doWait at ../torch/csrc/distributed/c10d/TCPStore.cpp:445 (most recent call first):
                """)
            .expect(error("retrieving ncclUniqueId", "rank 0's log").at("a.log:1")),
        given(
                "the same wait before PyTorch 2.1 ('retreiving'), a title"
                    + " (https://github.com/zai-org/ChatGLM-6B/issues/1232)",
                """
                [BUG/Help] <title> RuntimeError: [1] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
            "the server socket retrying is not yet a timeout (https://github.com/ModelTC/LightCompress/issues/365)",
            """
            [W416 15:37:25.363094293 socket.cpp:933] [c10d] The server socket on [::ffff:36.xxx.xxx.13]:40613 has timed out, will retry.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new RendezvousTimeout(), "rendezvous-timeout", c);
  }
}
