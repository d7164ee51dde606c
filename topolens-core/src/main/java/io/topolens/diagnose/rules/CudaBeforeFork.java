package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code cuda-before-fork}: a process initialised CUDA and then forked workers that use it
 * (PyTorch's {@code Cannot re-initialize CUDA in forked subprocess}, Lightning's {@code can't
 * create new processes if CUDA is already initialized}).
 */
public final class CudaBeforeFork extends WarningRule {

  public CudaBeforeFork() {
    super(Severity.ERROR, NcclWarning.Kind.CUDA_BEFORE_FORK);
  }

  @Override
  public String id() {
    return "cuda-before-fork";
  }

  @Override
  String title() {
    return "CUDA was initialised before the process forked workers that use it";
  }

  @Override
  String explanation() {
    return "CUDA cannot be used in a child created by fork() once the parent has initialised it. PyTorch raises 'Cannot re-initialize CUDA in forked subprocess' in the child (a DataLoader worker or a multiprocessing.Process that touches the GPU, a fork-based launcher such as Lightning's ddp_fork/ddp_notebook or vLLM's workers); Lightning refuses to fork at all when CUDA is already initialised in the notebook or script. Something in the parent initialised CUDA first: a tensor or model moved to the GPU, torch.cuda.* calls (set_device, device_count in old releases), a library that touches the GPU on import.";
  }

  @Override
  String fix() {
    return "Keep CUDA out of the parent until the workers exist: move models and tensors to the GPU inside the worker (or the LightningModule), not at import or in the notebook; or start children with spawn (torch.multiprocessing.set_start_method('spawn'), multiprocessing_context='spawn' for a DataLoader, strategy='ddp' or 'ddp_spawn' instead of ddp_fork/ddp_notebook, VLLM_WORKER_MULTIPROC_METHOD=spawn); in a notebook restart the kernel after the fix.";
  }
}
