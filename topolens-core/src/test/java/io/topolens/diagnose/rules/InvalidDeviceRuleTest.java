package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CUDA 101 'invalid device ordinal' and CUDA 100 'no CUDA-capable device', from NCCL's CUDACHECK in
 * any file and from nccl-tests.
 */
class InvalidDeviceRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "NCCL's p2p.cc, a title line (https://github.com/NVIDIA/nccl/issues/1948)",
                """
                transport/p2p.cc:275 NCCL WARN Cuda failure 101 'invalid device ordinal'
                """)
            .expect(
                error("A rank asked for a GPU its process cannot see", "local_rank").at("a.log:1")),
        given(
                "nccl-tests with hosts, 8 ranks per node (https://github.com/NVIDIA/nccl-tests/issues/263)",
                """
                # Using devices
                g0010: Test CUDA failure common.cu:941 'invalid device ordinal'
                 .. g0010 pid 888386: Test failure common.cu:891
                g0016: Test CUDA failure common.cu:941 'invalid device ordinal'
                 .. g0016 pid 3645592: Test failure common.cu:891
                """)
            .expect(error("2 line(s) of 1 distinct form(s)").at("a.log:2")),
        given(
                "nccl-tests before 2.x (https://github.com/NVIDIA/nccl-tests/issues/2)",
                """
                >> Cuda failure common.cu:891 'invalid device ordinal'
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "CUDA 100, no GPU seen at all, nccl-tests (https://github.com/NVIDIA/nccl-tests/issues/30)",
                """
                # Using devices
                458398: Test CUDA failure common.cu:730 'no CUDA-capable device is detected'
                """)
            .expect(error("no GPU at all", "CUDA_VISIBLE_DEVICES").at("a.log:2")),
        given(
            "another CUDA failure is not a missing device (nccl issue 846)",
            """
            transport.cc:154 NCCL WARN Cuda failure 'invalid argument'
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new InvalidDevice(), "invalid-device", c);
  }
}
