package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The remote allocator of older NCCL (bootstrap.cc's {@code [Rem Allocator]}) failing on a
 * connection not meant for it, and the fake out-of-memory it prints with it.
 */
class RemAllocatorFailedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "the allocation failure with alloc.h's out of memory from the same process",
                """
                node-a:39:298 [0] bootstrap.cc:279 NCCL WARN [Rem Allocator] Allocation failed (segment 0, fd 130)
                node-a:39:298 [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'
                """)
            .expect(
                warn(
                        "NCCL's remote-memory allocator took a connection not meant for it",
                        "not the GPU running out",
                        "2.17")
                    .at("a.log:1", "a.log:2")),
        given(
                "the failure alone",
                """
                node-a:39:298 [0] bootstrap.cc:279 NCCL WARN [Rem Allocator] Allocation failed (segment 3, fd 88)
                """)
            .expect(warn("allocator").lacks("not the GPU running out").at("a.log:1")),
        given(
            "a real out of memory of another process is cuda-out-of-memory's",
            """
            node-b:40:300 [1] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'
            """),
        given(
            "the allocator's other warning alone is no allocation failure",
            """
            node-a:39:298 [0] bootstrap.cc:300 NCCL WARN [Rem Allocator] cudaFree 0x7f00 failed
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new RemAllocatorFailed(), "rem-allocator-failed", c);
  }
}
