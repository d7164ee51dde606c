package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DdpUnusedParametersRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "the error with the parameters' names (TORCH_DISTRIBUTED_DEBUG=INFO) on rank 3"
                    + " (https://github.com/hkchengrex/Cutie/issues/125)",
                """
                RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. This error indicates that your module has parameters that were not used in producing loss. You can enable unused parameter detection by passing the keyword argument find_unused_parameters=True to torch.nn.parallel.DistributedDataParallel, and by
                making sure all forward function outputs participate in calculating loss.
                Parameters which did not receive grad for rank 3: mask_encoder.sensory_update.transform.bias, mask_encoder.sensory_update.transform.weight
                Parameter indices which did not receive grad for rank 3: 282 283
                """)
            .expect(
                error(
                        "DDP parameters received no gradient",
                        "find_unused_parameters=True",
                        "static_graph")
                    .at("a.log:1", "a.log:3", "a.log:4")),
        given(
                "the indices only, without TORCH_DISTRIBUTED_DEBUG, on rank 2"
                    + " (https://github.com/open-mmlab/mmpose/issues/3111)",
                """
                Parameter indices which did not receive grad for rank 2: 362 363 364 365 366 367 368 369 394 395 396 397 398 399 400 401
                 In addition, you can set the environment variable TORCH_DISTRIBUTED_DEBUG to either INFO or DETAIL to print out information about which particular parameters did not receive gradient on this rank as part of this error: RuntimeError
                """)
            .expect(error("DDP parameters received no gradient").at("a.log:1")),
        given(
            "the fix PR's words about iterations without used parameters are no error"
                + " (built: prose of https://github.com/pytorch/pytorch/pull/19821)",
            """
            It is possible that not a single parameter is used during an iteration.
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new DdpUnusedParameters(), "ddp-unused-parameters", c);
  }
}
