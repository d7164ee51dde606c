package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code cuda-illegal-address}: a GPU kernel faulted and CUDA reported it through NCCL ({@code 'an
 * illegal memory access was encountered'}, CUDA 700; 715, 716, 719).
 */
public final class CudaFault extends WarningRule {

  public CudaFault() {
    super(Severity.ERROR, NcclWarning.Kind.CUDA_FAULT);
  }

  @Override
  public String id() {
    return "cuda-illegal-address";
  }

  @Override
  String title() {
    return "A GPU kernel faulted (illegal memory access)";
  }

  @Override
  String explanation() {
    return "CUDA reported a kernel fault (an illegal memory access, 700; an illegal instruction, 715; a misaligned address, 716; an unspecified launch failure, 719) at an NCCL call. These errors are sticky and asynchronous: the faulting kernel is any kernel launched before, often the application's own or a library's, not necessarily NCCL's; NCCL only saw the error first. A known cause inside NCCL is a bug of one release (some pip wheels of nvidia-nccl-cu12), and a modified NCCL kernel.";
  }

  @Override
  String fix() {
    return "Rerun with CUDA_LAUNCH_BLOCKING=1 (and compute-sanitizer on one rank) to find the kernel that faults; if it is NCCL's, upgrade NCCL (pip install -U nvidia-nccl-cu12, or the framework's bundled NCCL) and compare with another release; check nvidia-smi -q for Xid errors (Xid 13, 31, 43) that point at the hardware.";
  }
}
