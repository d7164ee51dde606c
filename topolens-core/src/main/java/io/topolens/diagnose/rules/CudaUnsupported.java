package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code cuda-unsupported}: CUDA refused a feature NCCL uses ({@code Cuda failure 'operation not
 * supported'}, CUDA 801), outside NVLS, whose multicast failures are {@code nvls-error}'s.
 */
public final class CudaUnsupported extends WarningRule {

  public CudaUnsupported() {
    super(Severity.ERROR, NcclWarning.Kind.CUDA_UNSUPPORTED);
  }

  @Override
  public String id() {
    return "cuda-unsupported";
  }

  @Override
  String title() {
    return "CUDA does not support an operation NCCL needs on this GPU";
  }

  @Override
  String explanation() {
    return "A CUDA call inside NCCL returned cudaErrorNotSupported (801): the GPU, its driver or its virtualisation lacks a feature NCCL uses, most often at init the stream-ordered memory pool (cudaMemPoolCreate, init.cc) or cuMem virtual memory. Virtual GPUs (VMware/NVIDIA vGPU profiles with unified memory disabled), some MIG and older driver set-ups refuse these calls; NCCL's configuration does not help where NCCL needs the call unconditionally.";
  }

  @Override
  String fix() {
    return "On a vGPU, enable unified memory for the VM's profile (the hypervisor setting for UVM) or use GPU passthrough; otherwise use a driver that supports the feature, or an NCCL release that does not need it on this platform (compare with an older NCCL); NCCL_CUMEM_ENABLE=0 avoids cuMem but not the memory pool.";
  }
}
