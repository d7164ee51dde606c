package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class KnownNcclBugRuleTest {

  /** The WSL2 host of nccl-tests issue 170 (Windows' own computer name). */
  static final String WSL_HOST =
      "DESKTOP-VMBL43V:8347:8347 [0] NCCL INFO Bootstrap : Using eth0:172.23.125.43<0>\n";

  /** PyTorch's unhandled cuda error with CUDA's invalid argument (nccl issue 1410). */
  static final String INVALID_ARGUMENT =
      """
      [rank7]: ncclUnhandledCudaError: Call to CUDA function failed.
      [rank7]: Last error:
      [rank7]: Cuda failure 1 'invalid argument'
      """;

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "NCCL 2.18.5 on a WSL2 host with ncclUnhandledCudaError and 'invalid argument'",
                WSL_HOST + "NCCL version 2.18.5+cuda12.2\n" + INVALID_ARGUMENT)
            .expect(
                error(
                        "NCCL 2.18.5 on WSL2: a known NCCL bug, fixed in 2.18.6",
                        "This log shows NCCL 2.18.5, on WSL2",
                        "https://github.com/NVIDIA/nccl/issues/1024",
                        "NCCL 2.18.6 or later")
                    .at("a.log:2", "a.log:3", "a.log:5", "a.log:1")),
        given(
            "NCCL 2.18.3 on the same WSL2 host: not the release the bug is known in (nccl-tests"
                + " issue 170's lines)",
            WSL_HOST + "NCCL version 2.18.3+cuda12.1\n" + INVALID_ARGUMENT),
        given(
            "NCCL 2.18.5 with 'invalid argument' from NVLS, even on a WSL2 host: the fabric"
                + " manager's, not this bug (nccl issue 976's lines)",
            WSL_HOST
                + """
                NCCL version 2.18.5+cuda12.2
                DESKTOP-VMBL43V:8347:8354 [0] transport/nvls.cc:165 NCCL WARN Cuda failure 'invalid argument'
                ncclUnhandledCudaError: Call to CUDA function failed.
                """),
        given(
            "NCCL 2.18.5 and the symptom on a host that is not Windows' (nccl issue 1410's error"
                + " after nccl issue 976's version line)",
            "node1:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
                + "NCCL version 2.18.5+cuda12.2\n"
                + INVALID_ARGUMENT),
        given(
            "NCCL 2.18.5 on a WSL2 host that works: no symptom, no finding",
            WSL_HOST + "NCCL version 2.18.5+cuda12.2\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new KnownNcclBugRule(), "known-nccl-bug", c);
  }
}
