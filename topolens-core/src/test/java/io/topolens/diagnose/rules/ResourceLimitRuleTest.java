package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Process limits: open files, threads, host memory. Sources of the texts: nccl/messages/README.md.
 */
class ResourceLimitRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "sockets out of file descriptors (misc/socket.cc, 2.28.3)",
                """
                node-a:4021:4090 [0] misc/socket.cc:541 NCCL WARN Call to socket failed: Too many open files
                node-a:4021:4090 [0] NCCL INFO misc/socket.cc:612 -> 2
                """)
            .expect(error("ulimit -n").at("a.log:1")),
        given(
                "a thread NCCL could not start (bootstrap.cc) and the file limit it could not raise",
                """
                node-a:4021:4090 [0] bootstrap.cc:297 NCCL WARN Call to pthread_create failed: Resource temporarily unavailable
                node-a:4021:4090 [0] bootstrap.cc:120 NCCL WARN Call to setrlimit failed: Operation not permitted
                """)
            .expect(error("pids limit").at("a.log:1", "a.log:2")),
        given(
            "a refused connection is socket-connect's",
            """
            node-a:4021:4090 [0] misc/socket.cc:484 NCCL WARN socketPollConnect to 10.0.0.12<43567> failed with error Connection refused
            """),
        given(
            "a GPU allocation is cuda-out-of-memory's",
            """
            node-a:4021:4090 [0] include/alloc.h:125 NCCL WARN Failed to CUDA calloc 1048576 bytes
            """),
        given("a healthy init", Logs.rankOfTwo(0, "node-a", 1, "P2P/CUMEM")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new ResourceLimit(), "resource-limit", c);
  }
}
