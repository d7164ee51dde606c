package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code invalid-device}: a rank asked CUDA for a device index the process cannot see ({@code
 * 'invalid device ordinal'}, CUDA 101), from NCCL or nccl-tests.
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
    return "A rank asked for a GPU that does not exist in its process";
  }

  @Override
  String explanation() {
    return "CUDA answered 'invalid device ordinal' (error 101): a rank selected a device index at or beyond the number of GPUs visible to its process. This happens when more ranks are started on a node than it has GPUs (mpirun -np or -H host:slots larger than the GPU count, nccl-tests' -g times the ranks per node), when CUDA_VISIBLE_DEVICES or the scheduler (srun --gpus-per-task, a container's device list) shows each process fewer GPUs than the index it uses (local rank used as a device index), or when a GPU fell off the bus.";
  }

  @Override
  String fix() {
    return "Count the GPUs each process sees (nvidia-smi -L through the same launcher, CUDA_VISIBLE_DEVICES) and start at most that many ranks per node, each on device local_rank modulo that count; with one GPU per task (srun --gpus-per-task=1) use device 0 in every task.";
  }
}
