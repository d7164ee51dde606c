package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** NCCL's GPU allocation failures, as CUDACHECK, CUCHECK and alloc.h print them. */
class CudaOutOfMemoryRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "vLLM v1's KV cache shorter than one request (kv_cache_utils.py's format, as a"
                    + " serving note quotes it)",
                """
                ValueError: To serve at least one request with the models's max seq len (131072), (4.00 GiB KV cache is needed, which is larger than the available KV cache memory (0.65 GiB). Based on the available memory, the estimated maximum model length is 21440. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.
                """)
            .expect(error("128k tokens").at("a.log:1")),
        given(
                "vLLM's KV cache without room (its format, as serving notes in the code corpus quote"
                    + " it after 'Available KV cache memory: -0.3 GiB')",
                """
                Available KV cache memory: -0.3 GiB
                ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.
                """)
            .expect(
                error(
                        "A rank ran out of GPU memory (the framework's allocation)",
                        "--max-model-len")
                    .at("a.log:2")),
        given(
                "SGLang's KV cache pool without room (model_runner.py's format)",
                """
                RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.
                """)
            .expect(error("mem_fraction_static").at("a.log:1")),
        given(
                "XLA's allocator under JAX (https://github.com/patrickbryant1/AFProfile/issues/8)",
                """
                jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4770354232 bytes.
                BufferAssignment OOM Debugging.
                """)
            .expect(
                error(
                        "A rank ran out of GPU memory (the framework's allocation)",
                        "XLA_PYTHON_CLIENT_MEM_FRACTION")
                    .at("a.log:1")),
        given(
                "PyTorch's allocator on one rank of eight before the others' watchdog timeout"
                    + " (https://github.com/modelscope/FunASR/issues/2006)",
                """
                [rank2]: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 336.00 MiB. GPU  has a total capacity of 79.15 GiB of which 141.25 MiB is free. Process 2109115 has 78.99 GiB memory in use.
                """)
            .expect(
                error(
                        "A rank ran out of GPU memory (the framework's allocation)",
                        "expandable_segments")
                    .lacks("NCCL ran out of GPU memory")
                    .at("a.log:1")),
        given(
                "PyTorch's CUDA check at a barrier (https://github.com/MIC-DKFZ/nnUNet/issues/593)",
                """
                    work = default_pg.barrier(opts=opts)
                RuntimeError: CUDA error: out of memory
                Killing subprocess 31867
                """)
            .expect(
                error("A rank ran out of GPU memory (the framework's allocation)").at("a.log:2")),
        given(
                "alloc.h: the CUDA error, then the calloc that failed (nccl issue 1235)",
                """
                ng30903:3063028:3066152 [3] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'

                ng30903:3063028:3066152 [3] include/alloc.h:185 NCCL WARN Failed to CUDA calloc 6291456 bytes
                ng30903:3063028:3066152 [3] NCCL INFO transport/p2p.cc:204 -> 1
                """)
            .expect(
                error(
                        "NCCL ran out of GPU memory",
                        "2 line(s) of 2 distinct form(s), from up to 1 process(es).",
                        "NCCL_BUFFSIZE")
                    .at("a.log:1", "a.log:3")),
        given(
                "enqueue.cc, repeated on one rank (TensorRT-LLM issue 1670)",
                """
                VM-0-16-ubuntu:392:494 [2] enqueue.cc:43 NCCL WARN Cuda failure 'out of memory'

                VM-0-16-ubuntu:392:494 [2] enqueue.cc:54 NCCL WARN Cuda failure 'invalid resource handle'

                VM-0-16-ubuntu:392:494 [2] enqueue.cc:43 NCCL WARN Cuda failure 'out of memory'
                """)
            .expect(error("2 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "quoted in prose, no header (nccl issue 295)",
                """
                It tells me that "NCCL WARN Cuda failure 'out of memory' " and times out.
                """)
            .expect(error("1 line(s) of 1 distinct form(s)").at("a.log:1")),
        given(
                "the allocator's out of memory said by another process too is kept (the lines merge)",
                """
                node-a:39:298 [0] bootstrap.cc:279 NCCL WARN [Rem Allocator] Allocation failed (segment 0, fd 130)
                node-a:39:298 [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'
                node-b:40:300 [1] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'
                """)
            .expect(
                error("2 line(s) of 1 distinct form(s), from up to 2 process(es)").at("a.log:2")),
        given(
            "the remote allocator's fake out of memory is rem-allocator-failed's",
            """
            node-a:39:298 [0] bootstrap.cc:279 NCCL WARN [Rem Allocator] Allocation failed (segment 0, fd 130)
            node-a:39:298 [0] include/alloc.h:48 NCCL WARN Cuda failure 'out of memory'
            """),
        given(
            "another CUDA failure is not memory (nccl issue 846)",
            """
            transport.cc:154 NCCL WARN Cuda failure 'invalid argument'
            """),
        given(
            "/dev/shm full is host memory, not GPU memory",
            """
            ubuntu:9621:9691 [6] misc/shmutils.cc:71 NCCL WARN Error: failed to extend /dev/shm/nccl-fjwOOB to 5967876 bytes
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new CudaOutOfMemory(), "cuda-out-of-memory", c);
  }
}
