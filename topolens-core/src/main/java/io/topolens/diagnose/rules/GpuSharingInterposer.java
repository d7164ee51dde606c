package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code gpu-sharing-interposer}: the CUDA interposer of a GPU-sharing layer, preloaded into the
 * process, failed in its own hooks while CUDA or NCCL initialised: HAMi-core's libvgpu.so (the
 * library HAMi's device plugin and Volcano's vGPU plugin put in LD_PRELOAD of a pod that asks for a
 * GPU fraction) logging {@code [HAMI-core ERROR (...)]: Illegal device id: 31069} before the
 * process segfaults in {@code /libvgpu/src/multiprocess/multiprocess_memory_limit.c}.
 */
public final class GpuSharingInterposer extends WarningRule {

  public GpuSharingInterposer() {
    super(Severity.ERROR, NcclWarning.Kind.GPU_INTERPOSER);
  }

  @Override
  public String id() {
    return "gpu-sharing-interposer";
  }

  @Override
  String title() {
    return "The GPU-sharing layer's CUDA interposer crashed the process";
  }

  @Override
  String explanation() {
    return "HAMi-core (libvgpu.so, preloaded into every container of a pod that asks HAMi or Volcano's vGPU plugin for a GPU share) wraps the CUDA driver calls to count and cap each process's memory. 'Illegal device id: N' with a large or random N is its own hook indexing its per-device table with a device number it never set: its cuMemCreate hook reads an uninitialised device when an allocation is not on a device (HAMi-core issue 187), as NCCL's cuMem host buffers are (ncclCuMemHostEnable probes them at init), and the out-of-range write that follows segfaults the process inside libvgpu (/libvgpu/src/multiprocess/multiprocess_memory_limit.c). NCCL, vLLM or PyTorch never got to fail in their own words: a job over several GPUs dies at communicator init, while single-GPU work in the same pod may run.";
  }

  @Override
  String fix() {
    return "Upgrade HAMi (its maintainers name v2.8.1 for NCCL's case; HAMi issue 1853 still met it in v2.8.2 at another hook, so test the release); meanwhile NCCL_CUMEM_HOST_ENABLE=0 keeps NCCL's host buffers off cuMemCreate (SHM falls back to /dev/shm, NCCL issue 2106), CUDA_DISABLE_CONTROL=true makes libvgpu pass calls through (no memory cap), or give multi-GPU jobs whole GPUs (nvidia.com/gpu without a gpumem or gpucores share, or nodes outside HAMi's sharing).";
  }
}
