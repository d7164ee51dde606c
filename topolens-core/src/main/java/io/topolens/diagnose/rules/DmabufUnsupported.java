package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code dmabuf-unsupported}: the NIC could not register GPU memory through DMA-BUF ({@code Call to
 * ibv_reg_dmabuf_mr failed with error ...}).
 */
public final class DmabufUnsupported extends WarningRule {

  public DmabufUnsupported() {
    super(Severity.ERROR, NcclWarning.Kind.DMABUF);
  }

  @Override
  public String id() {
    return "dmabuf-unsupported";
  }

  @Override
  String title() {
    return "GPU memory registration through DMA-BUF refused";
  }

  @Override
  String explanation() {
    return "NCCL (2.13 and later) registers GPU buffers with the NIC through DMA-BUF (ibv_reg_dmabuf_mr) where the kernel, the driver and the CUDA version support it, and falls back to nvidia-peermem otherwise. Here the call failed: the RDMA stack (MLNX_OFED / rdma-core, or the kernel) is too old for DMA-BUF, or the GPU driver's open/proprietary module does not export it, and the fallback did not happen. This is not the fabric: the links may be fine.";
  }

  @Override
  String fix() {
    return "Run with NCCL_DMABUF_ENABLE=0 (NCCL then uses nvidia-peermem for GPUDirect RDMA, if loaded), or update MLNX_OFED/rdma-core and the kernel to versions with DMA-BUF support; newer NCCL releases fall back more reliably.";
  }
}
