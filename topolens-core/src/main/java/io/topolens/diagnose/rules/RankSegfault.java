package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code rank-segfault}: a rank crashed with a segmentation fault (torchrun's {@code exitcode:
 * -11}, {@code Signal 11 (SIGSEGV)}, DeepSpeed's {@code return code = -11}, Open MPI's {@code
 * exited on signal 11 (Segmentation fault)}, srun's {@code task 0: Segmentation fault}).
 */
public final class RankSegfault extends WarningRule {

  public RankSegfault() {
    super(Severity.ERROR, NcclWarning.Kind.SEGFAULT);
  }

  @Override
  public String id() {
    return "rank-segfault";
  }

  @Override
  String title() {
    return "A rank crashed with a segmentation fault (SIGSEGV)";
  }

  @Override
  String explanation() {
    return "A rank's process ended by SIGSEGV (exit code -11): native code in the process itself (a C++/CUDA extension, a library built for another PyTorch or CUDA, a preloaded library, a DataLoader worker's shared memory, NCCL or a network plugin) touched memory it does not own. Unlike SIGKILL (exit code -9) nothing killed it from outside, so the out-of-memory killer is not the cause. Python prints no traceback for it; the other ranks then lose their peer (Connection closed by remote peer, ncclRemoteError) or time out: those are consequences.";
  }

  @Override
  String fix() {
    return "Find the faulting frame: rerun with PYTHONFAULTHANDLER=1 (python -X faulthandler) for the Python stack, or under gdb (gdb -ex r --args python ...; bt) or with core dumps (ulimit -c unlimited); rebuild extensions (apex, flash-attn, deepspeed ops, bitsandbytes) against the installed PyTorch and CUDA; try num_workers=0; NCCL_DEBUG=INFO to see whether the crash is inside NCCL or its net plugin.";
  }
}
