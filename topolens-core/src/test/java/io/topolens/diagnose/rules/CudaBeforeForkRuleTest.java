package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** CUDA initialised before a fork, in PyTorch's and Lightning's words; quoted source is not. */
class CudaBeforeForkRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "PyTorch's error in a forked child"
                    + " (https://github.com/facebookresearch/pycls/issues/183)",
                """
                RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method
                """)
            .expect(
                error(
                        "CUDA was initialised before the process forked workers that use it",
                        "set_start_method('spawn')")
                    .at("a.log:1")),
        given(
                "the same with the quotes escaped as pasted"
                    + " (https://github.com/IDEA-Research/GroundingDINO/issues/276)",
                """
                RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the \\'spawn\\' start method
                """)
            .expect(error("CUDA was initialised before the process forked").at("a.log:1")),
        given(
                "Lightning's refusal to fork in a notebook"
                    + " (https://github.com/Lightning-AI/pytorch-lightning/issues/21561)",
                """
                RuntimeError: Lightning can't create new processes if CUDA is already initialized. Did you manually call `torch.cuda.*` functions, have moved the model to the device, or allocated memory on the GPU any other way? Please remove any such calls, or change the selected strategy. You will have to restart the Python kernel.
                """)
            .expect(error("CUDA was initialised before the process forked").at("a.log:1")),
        given(
            "the string literal a traceback quotes"
                + " (https://github.com/Quantum-Cheese/DeepReinforcementLearning_Pytorch/issues/3)",
            """
            "Cannot re-initialize CUDA in forked subprocess. To use CUDA with "
            """),
        given(
            "a PR's title about the fix names no failure"
                + " (https://github.com/Lightning-AI/pytorch-lightning/pull/14709)",
            """
            Better error message when trying to re-initialize CUDA in forked subprocess
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new CudaBeforeFork(), "cuda-before-fork", c);
  }
}
