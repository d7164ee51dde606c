package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code cuda-arch-unsupported}: CUDA found no kernel of the NCCL build (or the framework's) for
 * this GPU's architecture ({@code Cuda failure 'named symbol not found'}, {@code 'no kernel image
 * is available for execution on the device'}, {@code 'invalid device function'}).
 */
public final class CudaArchUnsupported extends WarningRule {

  public CudaArchUnsupported() {
    super(Severity.ERROR, NcclWarning.Kind.CUDA_ARCH);
  }

  @Override
  public String id() {
    return "cuda-arch-unsupported";
  }

  @Override
  String title() {
    return "The NCCL build has no kernels for this GPU's architecture";
  }

  @Override
  String explanation() {
    return "CUDA could not find NCCL's kernel for this GPU (cudaErrorSymbolNotFound, cudaErrorNoKernelImageForDevice or cudaErrorInvalidDeviceFunction): the library was compiled for other compute capabilities than the GPU's, typically an NCCL built from source with NVCC_GENCODE for an older GPU (sm_80 only, run on an H100, sm_90), or a build older than the GPU generation. Every collective fails the same way; no setting of NCCL changes it.";
  }

  @Override
  String fix() {
    return "Check the GPU's compute capability (nvidia-smi --query-gpu=compute_cap --format=csv) and rebuild NCCL with it in NVCC_GENCODE (e.g. -gencode=arch=compute_90,code=sm_90 beside the existing ones), or use a released NCCL (and framework) that supports this GPU generation.";
  }
}
