package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code nccl-not-built}: the job asked PyTorch for the nccl backend and this PyTorch build has no
 * NCCL ({@code RuntimeError: Distributed package doesn't have NCCL built in}, {@code Attempted to
 * get default timeout for nccl backend, but NCCL support is not compiled}).
 */
public final class NcclNotBuilt extends WarningRule {

  public NcclNotBuilt() {
    super(Severity.ERROR, NcclWarning.Kind.NCCL_NOT_BUILT);
  }

  @Override
  public String id() {
    return "nccl-not-built";
  }

  @Override
  String title() {
    return "This PyTorch has no NCCL";
  }

  @Override
  String explanation() {
    return "The job asked for the nccl backend (init_process_group(backend='nccl'), or a launcher or library that picks it for GPUs) and this PyTorch build has no NCCL compiled in, so it stopped before NCCL was ever loaded. PyTorch ships NCCL only in its CUDA builds for Linux: the Windows and macOS builds and the CPU-only wheels have none (torch.distributed.is_nccl_available() is False there). Nothing about the GPUs, the driver or the network is at fault.";
  }

  @Override
  String fix() {
    return "On Windows or macOS use the gloo backend (init_process_group(backend='gloo'); some tools take a --backend or dist_backend option), or run on Linux. On Linux install a CUDA build of PyTorch (pip install torch --index-url https://download.pytorch.org/whl/cu124 or another CUDA tag, not +cpu) and check python -c 'import torch; print(torch.cuda.is_available(), torch.distributed.is_nccl_available())'.";
  }
}
