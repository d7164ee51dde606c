package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code cuda-illegal-address}: a GPU kernel faulted and CUDA reported it through NCCL ({@code 'an
 * illegal memory access was encountered'}, CUDA 700; 715, 716, 719), or in the framework's words
 * ({@code RuntimeError: CUDA error: ...}); a kernel's own assertion (710) and the hardware's sticky
 * errors (uncorrectable ECC, 214; uncorrectable NVLink, 220) are forms with their own cause.
 */
public final class CudaFault extends WarningRule {

  public CudaFault() {
    super(Severity.ERROR, NcclWarning.Kind.CUDA_FAULT);
  }

  @Override
  public String id() {
    return "cuda-illegal-address";
  }

  @Override
  String title() {
    return "A GPU kernel faulted (illegal memory access)";
  }

  private static final List<String> HARDWARE =
      List.of("uncorrectable ecc error", "uncorrectable nvlink error");

  /** CUDA 710 in CUDA's words, and the kernel's own assertion line printed before it. */
  private static final List<String> ASSERT = List.of("device-side assert", "assertion `");

  @Override
  String title(List<NcclWarning> hits) {
    if (hits.stream().allMatch(w -> said(w, HARDWARE))) {
      return "The GPU reported an uncorrectable hardware error (ECC memory or NVLink)";
    }
    if (hits.stream().allMatch(w -> said(w, ASSERT))) {
      return "A GPU kernel's own assertion failed (device-side assert)";
    }
    return title();
  }

  private static boolean said(NcclWarning w, List<String> words) {
    String m = w.message().toLowerCase(java.util.Locale.ROOT);
    return words.stream().anyMatch(m::contains);
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            ASSERT,
            "'device-side assert triggered' (CUDA 710) is a kernel's own check failing: most often an index out of range (a label >= the number of classes in a loss, an embedding index >= the vocabulary), the program's bug on this rank; the collective that reported it only saw the sticky error first.",
            "Rerun with CUDA_LAUNCH_BLOCKING=1 (or the same step on CPU) to get the failing operation and its Python line; check the inputs' ranges (labels, token ids) on the rank that failed."),
        new Form(
            HARDWARE,
            "'uncorrectable ECC error encountered' (CUDA 214) and 'uncorrectable NVLink error detected during the execution' (CUDA 220) are raised by the GPU, not by a kernel: its memory held an error ECC could not correct, or an NVLink between GPUs failed. Every CUDA call of the process fails after it; the driver logs the matching Xid (48, 63, 64, 94, 95 for memory; 74 for NVLink) in the kernel log.",
            "Drain the node and look at the GPU: nvidia-smi -q -d ECC (volatile and aggregate counts, retired or remapped rows), nvidia-smi nvlink -e for NVLink errors, dmesg for NVRM Xid lines; reset the GPU (nvidia-smi -r) or reboot, and have a GPU whose errors repeat replaced; resume the job elsewhere."));
  }

  @Override
  String explanation() {
    return "CUDA reported a kernel fault (an illegal memory access, 700; an illegal instruction, 715; a misaligned address, 716; an unspecified launch failure, 719) at an NCCL call. These errors are sticky and asynchronous: the faulting kernel is any kernel launched before, often the application's own or a library's, not necessarily NCCL's; NCCL only saw the error first. A known cause inside NCCL is a bug of one release (some pip wheels of nvidia-nccl-cu12), and a modified NCCL kernel.";
  }

  @Override
  String fix() {
    return "Rerun with CUDA_LAUNCH_BLOCKING=1 (and compute-sanitizer on one rank) to find the kernel that faults; if it is NCCL's, upgrade NCCL (pip install -U nvidia-nccl-cu12, or the framework's bundled NCCL) and compare with another release; check nvidia-smi -q for Xid errors (Xid 13, 31, 43) that point at the hardware.";
  }
}
