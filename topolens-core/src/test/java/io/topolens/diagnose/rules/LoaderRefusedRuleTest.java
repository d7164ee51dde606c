package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The dynamic loader refusing libnccl, libcuda or libnvidia-ml before NCCL prints anything. */
class LoaderRefusedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "libnccl.so.2 needing a newer glibc than the host's (CentOS 6, NCCL 2.0.5;"
                    + " https://github.com/chainer/chainer-test/pull/339)",
                """
                ImportError: /lib64/libc.so.6: version `GLIBC_2.14' not found (required by /usr/local/cuda/lib64/libnccl.so.2)
                """)
            .expect(
                error(
                        "The dynamic loader refused libnccl.so.2: it needs GLIBC_2.14",
                        "a build for a newer distribution",
                        "made for this host's distribution")
                    .at("a.log:1")),
        given(
                "libnccl.so.2 on a mount without exec (the loader's format, glibc dl-load.c's"
                    + " \"failed to map segment from shared object\")",
                """
                python3: error while loading shared libraries: libnccl.so.2: failed to map segment from shared object: Operation not permitted
                """)
            .expect(
                error("could not map it", "mounted without exec", "remount,exec").at("a.log:1")),
        given(
                "libcuda of the other word size, raised by Python (MotrixLab/SMPLer-X issue 37's"
                    + " message, as ImportError)",
                """
                ImportError: libcuda.so.1: wrong ELF class: ELFCLASS32
                """)
            .expect(error("a library of the other word size", "ldconfig -p").at("a.log:1")),
        given(
            "NVML probed and passed over: not a refusal that ended anything"
                + " (https://github.com/ollama/ollama/issues/2226)",
            """
            2024/01/27 07:32:28 gpu.go:294: INFO Unable to load CUDA management library /usr/lib/libnvidia-ml.so.545.29.06: Unable to load /usr/lib/libnvidia-ml.so.545.29.06 library to query for Nvidia GPUs: /usr/lib/libnvidia-ml.so.545.29.06: wrong ELF class: ELFCLASS32
            """),
        given(
            "another program's library is not the job's (https://github.com/WinFF/winff/issues/14)",
            """
            winff: error while loading shared libraries: libglib-1.2.so.0: wrong ELF class: ELFCLASS32
            """),
        given(
            "libnccl not found stays nccl-not-built's (NcclNotBuiltRuleTest)",
            """
            ImportError: libnccl.so.2: cannot open shared object file: No such file or directory
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new LoaderRefused(), "loader-refused", c);
  }
}
