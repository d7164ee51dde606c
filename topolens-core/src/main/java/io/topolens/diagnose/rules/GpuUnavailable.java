package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code gpu-unavailable}: CUDA found the GPU unusable ({@code 'CUDA-capable device(s) is/are busy
 * or unavailable'}, CUDA 46: exclusive-process compute mode with another process on it; {@code
 * 'initialization error'}, CUDA 3).
 */
public final class GpuUnavailable extends WarningRule {

  public GpuUnavailable() {
    super(Severity.ERROR, NcclWarning.Kind.GPU_UNAVAILABLE);
  }

  @Override
  public String id() {
    return "gpu-unavailable";
  }

  @Override
  String title() {
    return "CUDA cannot use the GPU: busy, unavailable or failing to initialise";
  }

  @Override
  String explanation() {
    return "A CUDA call inside NCCL (or the framework) found the GPU unusable: 'CUDA-capable device(s) is/are busy or unavailable' (CUDA 46) means the GPU is in exclusive-process compute mode and another process already holds it (a second rank on the same GPU, a leftover process, a monitoring agent that opened a context), or the GPU is in a bad state; 'initialization error' (CUDA 3) means the driver could not initialise CUDA in this process (a process forked after CUDA started, a GPU fallen off the bus, a driver in a bad state).";
  }

  @Override
  String fix() {
    return "Check the compute mode and who holds the GPU: nvidia-smi -q -d COMPUTE (Exclusive_Process lets one process in; nvidia-smi -c DEFAULT as root restores sharing) and nvidia-smi --query-compute-apps=pid,name --format=csv; kill leftovers of earlier runs; give each rank its own GPU (LOCAL_RANK); for initialization errors look for Xid errors (dmesg, nvidia-smi -q), start CUDA only after forking (multiprocessing start method spawn), and reset or reboot a GPU that stays unavailable.";
  }
}
