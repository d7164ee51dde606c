package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code driver-library-error}: the NVIDIA driver's user-space libraries are missing, a stub, or do
 * not match the kernel module ({@code Failed to find CUDA library libcuda.so}, {@code 'CUDA driver
 * is a stub library'}, {@code Failed to open libnvidia-ml.so.1}, NVML's {@code Driver/library
 * version mismatch}).
 */
public final class DriverLibraryError extends WarningRule {

  public DriverLibraryError() {
    super(Severity.ERROR, NcclWarning.Kind.DRIVER_LIBRARY);
  }

  @Override
  public String id() {
    return "driver-library-error";
  }

  /**
   * A warning only where every process that printed the lines then completed communicator init:
   * NCCL found the driver another way (the CUDA runtime's entry points, as under WSL2).
   */
  @Override
  Severity severity(Job job, List<NcclWarning> hits) {
    boolean wentOn =
        hits.stream()
            .allMatch(
                w ->
                    job.communicators().stream()
                        .flatMap(c -> c.members().values().stream())
                        .anyMatch(
                            m ->
                                m.initCompleted()
                                    && w.process().equals(m.id().host() + ":" + m.id().pid())));
    return wentOn ? Severity.WARN : Severity.ERROR;
  }

  @Override
  String title() {
    return "NCCL could not load or use the NVIDIA driver's libraries";
  }

  @Override
  String explanation() {
    return "NCCL loads the driver's user-space libraries at init: libcuda.so (the CUDA driver API, through dlopen since 2.13) and libnvidia-ml.so.1 (NVML). One was not found, was the stub that CUDA toolkits ship for linking (CUDA 34 'CUDA driver is a stub library'), lacked functions NCCL needs, or does not match the kernel module (NVML 'Driver/library version mismatch': the driver was upgraded and the old module is still loaded). In containers the libraries come from the host through the NVIDIA container runtime; under WSL2 libcuda.so lives in /usr/lib/wsl/lib, a directory the loader does not search by default. Where the same process then completes communicator init, NCCL found the driver another way (recent versions fall back to the CUDA runtime's entry points, as they do under WSL2) and the line is a warning only.";
  }

  @Override
  String fix() {
    return "Make the host driver's libraries visible where the ranks run: run the container with the NVIDIA runtime (--gpus all, or the Kubernetes device plugin with the nvidia runtime class) so libcuda.so.1 and libnvidia-ml.so.1 are mounted; on WSL2 add /usr/lib/wsl/lib to LD_LIBRARY_PATH (or ldconfig it); remove the toolkit's stubs directory (.../lib64/stubs) from LD_LIBRARY_PATH; NCCL_CUDA_PATH names libcuda's directory for NCCL 2.13-2.18; after a driver upgrade reboot (or reload the nvidia modules) so the module matches the libraries (nvidia-smi then works again).";
  }
}
