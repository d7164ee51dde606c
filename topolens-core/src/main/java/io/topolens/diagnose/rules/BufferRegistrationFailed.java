package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code buffer-registration-failed}: registering or deregistering a user buffer failed ({@code
 * rank 3 failed to NET register userbuff}, {@code rank 3 failed to NVLS register sendbuff}, {@code
 * rank 3 deregister IPC buffer ... failed}, register/*.cc).
 */
public final class BufferRegistrationFailed extends WarningRule {

  public BufferRegistrationFailed() {
    super(Severity.ERROR, NcclWarning.Kind.REGISTRATION);
  }

  @Override
  public String id() {
    return "buffer-registration-failed";
  }

  @Override
  String title() {
    return "NCCL could not register (or deregister) a user buffer";
  }

  @Override
  String explanation() {
    return "A buffer the program registered with NCCL (ncclCommRegister, ncclCommWindowRegister, PyTorch's NCCL memory pool or tensor register hook) or that NCCL registers itself for zero-copy collectives (NCCL_LOCAL_REGISTER, NCCL_GRAPH_REGISTER under CUDA graphs) could not be mapped for the network (NET), the peer GPUs (IPC), NVLink SHARP (NVLS) or SHARP (COLLNET), or could not be found again when released. Registration needs memory NCCL can export: cuMem allocations for NVLS and IPC (not every allocator provides them: PyTorch's expandable segments, cudaMalloc without cuMem), GPUDirect RDMA for NET; a buffer freed before it is deregistered is not found.";
  }

  @Override
  String fix() {
    return "Find which registration the line names (NET, IPC, NVLS, COLLNET): turn user-buffer registration off to confirm (NCCL_LOCAL_REGISTER=0, NCCL_GRAPH_REGISTER=0; in PyTorch do not set TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK, which does not work with expandable segments), allocate registered buffers with ncclMemAlloc (cuMem), deregister a buffer before freeing it, and read the WARN before this line for the underlying CUDA or verbs error.";
  }
}
