package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code duplicate-gpu}: two ranks of one communicator on the same CUDA device ({@code Duplicate
 * GPU detected : rank A and rank B both on CUDA device X}).
 */
public final class DuplicateGpu extends WarningRule {

  public DuplicateGpu() {
    super(Severity.ERROR, NcclWarning.Kind.DUPLICATE_GPU);
  }

  @Override
  public String id() {
    return "duplicate-gpu";
  }

  @Override
  String title() {
    return "Two ranks on one GPU";
  }

  @Override
  String explanation() {
    return "NCCL found two ranks of one communicator on the same CUDA device and refused to build it (ncclInvalidUsage): every rank needs a GPU of its own. Usual causes: more processes per node than GPUs, a script that picks one fixed device (cuda:0, a default GPU) instead of the rank's own, torch.cuda.set_device never called before the first collective, or CUDA_VISIBLE_DEVICES showing each process the same single GPU.";
  }

  @Override
  String fix() {
    return "Start at most one process per GPU (torchrun --nproc_per_node equal to the node's GPU count) and pin each to its local rank before init: torch.cuda.set_device(int(os.environ['LOCAL_RANK'])) (or device_id= in init_process_group); drop hard-coded device indices; check with nvidia-smi that each process holds a different GPU.";
  }
}
