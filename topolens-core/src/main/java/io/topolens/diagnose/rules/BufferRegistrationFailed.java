package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code buffer-registration-failed}: NCCL could not release a registered user buffer ({@code rank
 * 3 deregister NVLS buffer ... failed}, {@code deregister COLLNET buffer handle ... failed}, {@code
 * Deregister: Could not find handle}, register/register.cc). Failed registrations themselves are
 * INFO lines (NCCL copies through its own buffers instead) and no finding.
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
    return "NCCL could not deregister a user buffer";
  }

  @Override
  String explanation() {
    return "The program released a buffer it had registered with NCCL (ncclCommDeregister, ncclCommWindowDeregister, PyTorch's NCCL memory pool or its tensor register hook, NCCL_GRAPH_REGISTER under CUDA graphs) and NCCL could not undo the registration: the NVLink SHARP (NVLS) or SHARP (COLLNET) mapping could not be removed, or NCCL holds no registration for that buffer and communicator (Deregister: Could not find handle: deregistered twice, with another communicator than it was registered with, or after the communicator was destroyed or the memory freed). A failed deregistration leaves the mapping behind; repeated, it exhausts multicast or SHARP resources, and a later registration or the communicator's destruction fails.";
  }

  @Override
  String fix() {
    return "Deregister each buffer once, with the communicator that registered it, before freeing the memory and before destroying the communicator; confirm by turning user-buffer registration off (NCCL_LOCAL_REGISTER=0, NCCL_GRAPH_REGISTER=0; in PyTorch leave TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK unset, it does not work with expandable segments), and read the WARN before this line for the CUDA error of the failed unmapping.";
  }
}
