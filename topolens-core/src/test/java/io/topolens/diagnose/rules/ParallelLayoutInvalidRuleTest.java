package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** TensorRT-LLM's, vLLM's, Megatron-LM's and JAX's checks of the parallel layout. */
class ParallelLayoutInvalidRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "TensorRT-LLM 0.6's run.py, a 2-GPU engine started without mpirun"
                    + " (https://github.com/NVIDIA/TensorRT-LLM/issues/753)",
                """
                tensorrt_llm/runtime/model_runner.py", line 81, in read_config
                    assert world_size == tensorrt_llm.mpi_world_size(), \\
                AssertionError: Engine world size (2 * 1) != Runtime world size (1)
                --------------------------------------------------------------------------
                Primary job  terminated normally, but 1 process returned
                """)
            .expect(
                error(
                        "The parallel layout does not fit the model or the processes launched",
                        "mpirun -n N")
                    .at("a.log:3")),
        given(
                "TensorRT-LLM 0.8's worldConfig.cpp"
                    + " (https://github.com/Tlntin/Qwen-TensorRT-LLM/issues/123)",
                """
                    world_config = WorldConfig.mpi(tensor_parallelism=tp_size,
                RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/home/jenkins/agent/workspace/LLM/release-0.8/L0_PostMerge/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:90)
                """)
            .expect(error("rank*.engine").at("a.log:2")),
        given(
                "TensorRT-LLM 0.12's wording (the title of"
                    + " https://github.com/NVIDIA/TensorRT-LLM/issues/1992)",
                """
                The qwen demo faileed to run: RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: MPI size 1 != TP size 2 * PP size 1
                """)
            .expect(error("tp_size x pp_size").at("a.log:1")),
        given(
                "vLLM's heads check (config.py's format, the values a verl user's note quotes)",
                """
                ValueError: Total number of attention heads (32) must be divisible by tensor parallel size (3).
                """)
            .expect(error("num_attention_heads").at("a.log:1")),
        given(
                "Megatron-LM's world size check (parallel_state.py's format)",
                """
                RuntimeError: world_size (8) is not divisible by tensor_model_parallel_size (3) x pipeline_model_parallel_size (1) x context_parallel_size (1)
                """)
            .expect(error("nproc_per_node").at("a.log:1")),
        given(
                "JAX's coordination service (coordination_service.cc's format)",
                """
                jaxlib.xla_extension.XlaRuntimeError: INVALID_ARGUMENT: Unexpected task registered with task_name=/job:jax_worker/replica:0/task:8
                """)
            .expect(error("process_id").at("a.log:1")),
        given(
            "the assert statement a traceback quotes is not the error",
            """
                assert world_size == tensorrt_llm.mpi_world_size(), \\
                    f'Engine world size ({world_size}) != Runtime world size ({tensorrt_llm.mpi_world_size()})'
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new ParallelLayoutInvalid(), "parallel-layout-invalid", c);
  }
}
