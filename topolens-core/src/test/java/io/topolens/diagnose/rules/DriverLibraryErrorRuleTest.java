package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;
import static io.topolens.diagnose.rules.Logs.warn;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The driver's user-space libraries NCCL loads: missing, a stub, or mismatched. Sources of the
 * texts: nccl/messages/README.md.
 */
class DriverLibraryErrorRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "libcuda.so not found (cudawrap.cc, 2.18), as under WSL2",
                """
                node-a:4021:4090 [0] misc/cudawrap.cc:188 NCCL WARN Failed to find CUDA library libcuda.so (NCCL_CUDA_PATH='') : libcuda.so: cannot open shared object file: No such file or directory
                """)
            .expect(error("/usr/lib/wsl/lib", "libcuda.so").at("a.log:1")),
        given(
                "the toolkit's stub libcuda (CUDA 34)",
                """
                node-a:4021:4090 [0] init.cc:1987 NCCL WARN Cuda failure 'CUDA driver is a stub library'
                """)
            .expect(error("stub").at("a.log:1")),
        given(
                "NVML after a driver upgrade without reboot, and libnvidia-ml missing",
                """
                node-a:4021:4090 [0] misc/nvmlwrap.cc:56 NCCL WARN nvmlInit_v2() failed: Driver/library version mismatch
                node-a:4021:4090 [0] misc/nvmlwrap.cc:40 NCCL WARN Failed to open libnvidia-ml.so.1
                """)
            .expect(error("reboot").at("a.log:1", "a.log:2")),
        given(
            "a driver older than the runtime is cuda-driver-too-old's",
            """
            node-a:4021:4090 [0] misc/cudawrap.cc:197 NCCL WARN Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'
            """),
        given("a healthy init", Logs.rankOfTwo(0, "node-a", 1, "P2P/CUMEM")),
        given(
                "libcuda not found, then init completes in the same process: NCCL found the driver another way",
                """
                node-a:100:110 [0] misc/cudawrap.cc:188 NCCL WARN Failed to find CUDA library libcuda.so (NCCL_CUDA_PATH='') : libcuda.so: cannot open shared object file: No such file or directory
                """
                    + Logs.rankOfTwo(0, "node-a", 1, "P2P/CUMEM"))
            .expect(warn("warning only").at("a.log:1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new DriverLibraryError(), "driver-library-error", c);
  }
}
