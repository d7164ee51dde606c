package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code cuda-out-of-memory}: NCCL could not allocate GPU memory for its buffers ({@code Cuda
 * failure 'out of memory'}, {@code Failed to CUDA calloc N bytes}); or the framework could not
 * ({@code RuntimeError: CUDA error: out of memory}, PyTorch's allocator's {@code CUDA out of
 * memory. Tried to allocate 2.00 GiB}): a form of its own, the job's memory, not NCCL's buffers
 * alone.
 */
public final class CudaOutOfMemory extends WarningRule {

  public CudaOutOfMemory() {
    super(Severity.ERROR, NcclWarning.Kind.GPU_MEMORY);
  }

  @Override
  public String id() {
    return "cuda-out-of-memory";
  }

  @Override
  String title() {
    return "NCCL ran out of GPU memory";
  }

  /** Words of the framework's own allocation failures: PyTorch's allocator, its CUDA check. */
  private static final List<String> FRAMEWORK =
      List.of("tried to allocate", "cuda error: out of", "out of memory while trying to allocate");

  /** Words of an inference engine's KV cache without room: vLLM's, SGLang's. */
  private static final List<String> ENGINE =
      List.of(
          "no available memory for the cache blocks",
          "not enough memory. please try to increase",
          "tokens that can be stored in kv cache",
          "larger than the available kv cache memory");

  @Override
  String title(List<NcclWarning> hits) {
    boolean framework =
        hits.stream()
            .allMatch(
                w ->
                    java.util.stream.Stream.concat(FRAMEWORK.stream(), ENGINE.stream())
                        .anyMatch(w.message().toLowerCase(java.util.Locale.ROOT)::contains));
    return framework ? "A rank ran out of GPU memory (the framework's allocation)" : title();
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            ENGINE,
            "Here an inference engine found no room for its KV cache: it reserves a fraction of the GPU (vLLM's gpu_memory_utilization, SGLang's mem_fraction_static), loads the weights, and sizes the cache from what is left, which was nothing or less than one request of the model's context (--max-model-len, by default the model's whole context, 128k tokens for many models): the model's weights per GPU (its size over the tensor-parallel size), CUDA graphs and activations take the whole fraction.",
            "Raise the fraction the engine may use (vLLM --gpu-memory-utilization, SGLang --mem-fraction-static) where the GPU has no other process, shrink what each GPU holds (a larger tensor-parallel size, a quantised model, a shorter --max-model-len / --context-length, fewer CUDA graphs), or use GPUs with more memory."),
        new Form(
            FRAMEWORK,
            "The framework's own allocation failed (PyTorch's caching allocator: 'CUDA out of memory. Tried to allocate N', or its CUDA check's 'CUDA error: out of memory'; XLA's under JAX: 'RESOURCE_EXHAUSTED: Out of memory while trying to allocate N bytes', within the fraction of the GPU JAX preallocated, 75 % by default): the model, its activations and optimizer state, and the communicators' buffers beside them, need more memory than the GPU has free; other ranks then wait in their next collective until the watchdog's timeout, or fail when this rank's process ends.",
            "Reduce the memory per GPU (a smaller micro-batch, activation checkpointing, sharding the optimizer and parameters: ZeRO / FSDP), set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation (under JAX, XLA_PYTHON_CLIENT_MEM_FRACTION for a larger share, leaving NCCL its buffers), and check nvidia-smi for another process on the same GPU (two ranks on one device, a leftover run)."));
  }

  @Override
  String explanation() {
    return "A GPU memory allocation NCCL made for its buffers (per channel and per peer, NCCL_BUFFSIZE each,"
        + " plus NVLS and P2P buffers) failed: the framework's caching allocator or the model had already taken"
        + " the memory NCCL needs at communicator init or at the first collective of a new peer.";
  }

  /**
   * The remote allocator's failure of old NCCL prints this text too: where only its process said
   * it, rem-allocator-failed says why.
   */
  @Override
  boolean elsewhere(Job job, NcclWarning w) {
    return RemAllocatorFailed.fake(job, w);
  }

  @Override
  String fix() {
    return "Leave NCCL headroom: lower the framework's memory fraction (or empty its cache before the first"
        + " collective), or shrink NCCL's buffers (NCCL_BUFFSIZE, fewer channels with NCCL_MAX_NCHANNELS,"
        + " NCCL_NVLS_ENABLE=0); then check nvidia-smi for other processes on the GPU.";
  }
}
