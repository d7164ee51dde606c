package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code cuda-driver-too-old}: a CUDA call inside NCCL failed because the driver is older than the
 * CUDA runtime ({@code CUDA driver version is insufficient for CUDA runtime version}).
 */
public final class CudaDriverTooOld extends WarningRule {

  public CudaDriverTooOld() {
    super(Severity.ERROR, NcclWarning.Kind.CUDA_DRIVER);
  }

  @Override
  public String id() {
    return "cuda-driver-too-old";
  }

  @Override
  String title() {
    return "The NVIDIA driver is too old for this CUDA";
  }

  @Override
  String explanation() {
    return "A CUDA call inside NCCL failed because the installed NVIDIA driver is older than the CUDA runtime the program (NCCL, the framework) was built with: a driver supports the CUDA versions up to the one it ships with (nvidia-smi prints it as CUDA Version), and the CUDA forward-compatibility package works only on data-centre GPUs. Nothing in NCCL's configuration can fix this.";
  }

  @Override
  String fix() {
    return "Compare nvidia-smi's driver (and its CUDA Version) with the runtime of the build (torch.version.cuda, the +cudaXY suffix of NCCL's version line): install a driver at least as new as that CUDA's minimum, or use a build of the framework for the CUDA the driver supports; in a container, the host's driver is the one that counts.";
  }
}
