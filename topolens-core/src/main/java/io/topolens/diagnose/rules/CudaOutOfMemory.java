package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;

/**
 * {@code cuda-out-of-memory}: NCCL could not allocate GPU memory for its buffers ({@code Cuda
 * failure 'out of memory'}, {@code Failed to CUDA calloc N bytes}).
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
