package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A tuner plugin NCCL loaded that failed its init (Google's config-based tuner, no config). */
class TunerPluginFailedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "the tuner's WARN with NCCL's header, then the init's unwinding (NCCL 2.27's"
                    + " tuner_v2.cc, as llm-d's GKE page quotes it:"
                    + " https://llm-d.ai/docs/dev/guides/recipes/modelserver/components/disable-gke-nccl-tuner-patch)",
                """
                node-a:628:628 [0] NCCL WARN No NCCL_TUNER_CONFIG_PATH provided. Please populate NCCL_TUNER_CONFIG_PATH to use config-based tuner plugin.
                node-a:628:628 [0] NCCL INFO plugin/tuner/tuner_v2.cc:50 -> 3
                """)
            .expect(
                error("no tuner config given", "ncclInternalError", "NCCL_TUNER_PLUGIN=none")
                    .at("a.log:1")),
        given(
                "PyTorch's Last error: text (NCCL 2.27.5, the same message; a training note's"
                    + " quote)",
                """
                torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, internal error - please report this issue to the NCCL developers, NCCL version 2.27.5
                ncclInternalError: Internal check failed.
                Last error:
                No NCCL_TUNER_CONFIG_PATH provided. Please populate NCCL_TUNER_CONFIG_PATH to use config-based tuner plugin.
                """)
            .expect(error("no tuner config given").at("a.log:4")),
        given(
            "NCCL refusing a tuner library's API version is healthy (INFO, 2.28.3)",
            """
            node-a:628:628 [0] NCCL INFO External tuner plugin libnccl-tuner.so is unsupported
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new TunerPluginFailed(), "tuner-plugin-failed", c);
  }
}
