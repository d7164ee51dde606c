package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code invalid-device}: a rank asked CUDA for a device index the process cannot see ({@code
 * 'invalid device ordinal'}, CUDA 101) or the process sees no GPU at all ({@code 'no CUDA-capable
 * device is detected'}, CUDA 100), from NCCL or nccl-tests.
 */
public final class InvalidDevice extends WarningRule {

  public InvalidDevice() {
    super(Severity.ERROR, NcclWarning.Kind.INVALID_DEVICE);
  }

  @Override
  public String id() {
    return "invalid-device";
  }

  @Override
  String title() {
    return "A rank asked for a GPU its process cannot see";
  }

  @Override
  String explanation() {
    return "CUDA answered 'invalid device ordinal' (error 101): a rank selected a device index at or beyond the number of GPUs visible to its process. This happens when more ranks are started on a node than it has GPUs (mpirun -np or -H host:slots larger than the GPU count, nccl-tests' -g times the ranks per node), when CUDA_VISIBLE_DEVICES or the scheduler (srun --gpus-per-task, a container's device list) shows each process fewer GPUs than the index it uses (local rank used as a device index), or when a GPU fell off the bus. 'no CUDA-capable device is detected' (error 100) means the process sees no GPU at all: CUDA_VISIBLE_DEVICES empty or naming GPUs that are not there, a container started without GPUs (no --gpus, no device plugin resource), the NVIDIA driver not loaded, or a CUDA installation that does not match the driver.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            "no visible gpu devices",
            "JAX's CUDA backend found no GPU in this process (FAILED_PRECONDITION: No visible GPU devices): CUDA_VISIBLE_DEVICES empty or naming GPUs that are not there, a container or pod started without GPUs, or a jax[cuda] plugin whose CUDA the driver cannot run.",
            "Check what the process sees (nvidia-smi and echo $CUDA_VISIBLE_DEVICES where it runs), pass the GPUs into the container (--gpus all, the device plugin's nvidia.com/gpu), and install the jax[cuda12] build that matches the driver; JAX_PLATFORMS=cpu is only for runs meant without GPUs."),
        new Form(
            "your machine only has: [",
            "PyTorch Lightning's device parser refused the GPU indices the Trainer asked for (`You requested gpu: [0, 1]` / `But your machine only has: [0]`): the process sees fewer GPUs than devices= or gpus= names. Under Slurm a prolog or srun --gpus-per-task often narrows CUDA_VISIBLE_DEVICES to one GPU per task, so a Trainer asking for all of the node's GPUs sees one; an empty list (`[]`) means the process sees no GPU at all: a CPU-only PyTorch build, or no GPU passed to the process.",
            "Ask for the GPUs the process sees: under Slurm, one task per GPU with devices equal to --ntasks-per-node and every GPU visible to each task (--gpus-per-node, not --gpus-per-task=1 with devices>1), or devices=1 per task; with an empty list, check torch.cuda.is_available() and install a CUDA build of PyTorch, and pass the GPUs into the container."));
  }

  @Override
  String fix() {
    return "Count the GPUs each process sees (nvidia-smi -L through the same launcher, CUDA_VISIBLE_DEVICES) and start at most that many ranks per node, each on device local_rank modulo that count; with one GPU per task (srun --gpus-per-task=1) use device 0 in every task. When no GPU is seen at all, check nvidia-smi on the host and in the container, unset or correct CUDA_VISIBLE_DEVICES, and reinstall the CUDA toolkit that matches the driver.";
  }
}
