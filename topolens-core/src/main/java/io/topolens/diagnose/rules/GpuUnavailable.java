package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code gpu-unavailable}: CUDA found the GPU unusable ({@code 'CUDA-capable device(s) is/are busy
 * or unavailable'}, CUDA 46: exclusive-process compute mode with another process on it; {@code
 * 'initialization error'}, CUDA 3; {@code 'unknown error'}, CUDA 999).
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
  List<Form> forms() {
    return List.of(
        new Form(
            List.of("memory capacity is unbalanced", "less than desired gpu memory utilization"),
            "Here the engine measured the GPU's free memory before loading the model and found too little of it: vLLM's free memory at start-up below the gpu_memory_utilization fraction of the GPU it reserves, SGLang's free memory of one tensor-parallel rank's GPU below 90 % of another's: other processes hold memory on some of the GPUs (a previous server that did not exit, another job, a monitoring agent), or the pod sees GPUs that are not its own (privileged: true shows every GPU of the node).",
            "List what holds each GPU (nvidia-smi --query-compute-apps=pid,used_memory --format=csv) and end the leftovers of earlier runs before starting; give the server GPUs of its own (CUDA_VISIBLE_DEVICES, the device plugin's resource instead of a privileged pod); SGLang's SGLANG_ENABLE_TP_MEMORY_INBALANCE_CHECK=0 (older SGL_DISABLE_TP_MEMORY_INBALANCE_CHECK) only skips the check; vLLM's --gpu-memory-utilization is a fraction of the whole GPU, so two engines on one GPU need fractions that add up to less than 1."),
        new Form(
            "failed to initialize nvml: unknown error",
            "'Failed to initialize NVML: Unknown Error' inside a container that could use its GPUs before means the container lost access to the GPU device files: on hosts whose container runtime uses the systemd cgroup driver, a systemd daemon-reload (a package update, a unit change) rewrites the container's device cgroup without the /dev/nvidia* devices the NVIDIA runtime added (NVIDIA container toolkit's known issue); every CUDA call of the process fails from then on.",
            "Restart the pod or container (its devices are added again); for good, pass the devices explicitly (the device plugin's DEVICE_LIST_STRATEGY=volume-mounts with --device nodes, or the NVIDIA container toolkit's CDI mode) or run the runtime with the cgroupfs driver, as the toolkit's troubleshooting notes say."),
        new Form(
            List.of("unknown error'", "cuda unknown error"),
            "'unknown error' (CUDA 999, CUDA_ERROR_UNKNOWN) at a process's first CUDA calls means the driver could not set the GPU up for this process at all: most often in a container or a scheduler's step (Docker, enroot/pyxis, Singularity, a Kubernetes pod) on a host where the nvidia_uvm kernel module is not loaded, so /dev/nvidia-uvm does not exist (it is loaded on demand by the first CUDA program run on the host, which a container cannot do); otherwise a GPU in a bad state (an Xid, a driver that needs a reset) or a host suspended and resumed.",
            "On the host: load the module (sudo modprobe nvidia-uvm, or nvidia-modprobe -u -c=0; any CUDA program run once on the host does it) and make it load at boot (persistence daemon, /etc/modules-load.d); check that /dev/nvidia-uvm and /dev/nvidia-uvm-tools exist and are passed into the container; then look for Xid errors (dmesg, nvidia-smi -q) and reset or reboot a GPU that still fails."));
  }

  @Override
  String fix() {
    return "Check the compute mode and who holds the GPU: nvidia-smi -q -d COMPUTE (Exclusive_Process lets one process in; nvidia-smi -c DEFAULT as root restores sharing) and nvidia-smi --query-compute-apps=pid,name --format=csv; kill leftovers of earlier runs; give each rank its own GPU (LOCAL_RANK); for initialization errors look for Xid errors (dmesg, nvidia-smi -q), start CUDA only after forking (multiprocessing start method spawn), and reset or reboot a GPU that stays unavailable.";
  }
}
