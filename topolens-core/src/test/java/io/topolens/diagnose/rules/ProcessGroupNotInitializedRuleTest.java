package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A torch.distributed call without init_process_group, in torch 1.x's and 2.x's words. */
class ProcessGroupNotInitializedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "vLLM's world group (parallel_state.py get_world_group)",
                """
                AssertionError: world group is not initialized
                """)
            .expect(
                error("model-parallel group was used before it was made: world group")
                    .at("a.log:1")),
        given(
                "torch 1.x's traceback, its raise statement quoted above the error"
                    + " (https://github.com/open-mmlab/mmsegmentation/issues/809)",
                """
                ~/anaconda3/envs/openmmlab/lib/python3.7/site-packages/torch/distributed/distributed_c10d.py in _get_default_group()
                    356     \"""
                    357     if not is_initialized():
                --> 358         raise RuntimeError("Default process group has not been initialized, "
                    359                            "please make sure to call init_process_group.")
                    360     return GroupMember.WORLD

                RuntimeError: Default process group has not been initialized, please make sure to call init_process_group.
                """)
            .expect(
                error("A torch.distributed call ran before init_process_group", "torchrun")
                    .at("a.log:8")),
        given(
                "torch 2.x's ValueError from a collective"
                    + " (https://github.com/congvvc/InstructSeg/issues/7)",
                """
                instructseg/eval/seg/eval_res.py", line 71, in all_reduce
                    dist.all_reduce(total, dist.ReduceOp.SUM, async_op=False)
                ValueError: Default process group has not been initialized, please make sure to call init_process_group.
                """)
            .expect(error("A torch.distributed call ran before init_process_group").at("a.log:3")),
        given(
                "an issue title in lower case without the exception's name"
                    + " (https://github.com/open-mmlab/mmsegmentation/issues/901)",
                """
                runtime error: Default process group has not been initialized, please make sure to call init_process_group
                """)
            .expect(error("A torch.distributed call ran before init_process_group").at("a.log:1")),
        given(
                "Megatron-LM's mpu asserting its pipeline group, its assert statement quoted above"
                    + " (https://github.com/facebookresearch/metaseq/issues/88)",
                """
                  File "/home/kastanday/githubs/Megatron-LM/megatron/mpu/initialize.py", line 222, in get_pipeline_model_parallel_group
                    assert _PIPELINE_MODEL_PARALLEL_GROUP is not None, \\
                AssertionError: pipeline_model parallel group is not initialized
                """)
            .expect(
                error(
                        "A model-parallel group was used before it was made: pipeline_model parallel group",
                        "initialize_model_parallel")
                    .at("a.log:3")),
        given(
            "the raise statement alone is source, not the error (same issue as the first row)",
            """
            --> 358         raise RuntimeError("Default process group has not been initialized, "
            """),
        given(
            "the advice to call it names no failure"
                + " (https://github.com/openvla/openvla/pull/78)",
            """
            Need to call init_process_group before `DDP(...)`, apparently. Otherwise get:
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new ProcessGroupNotInitialized(), "process-group-not-initialized", c);
  }
}
