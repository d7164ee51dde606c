package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.model.PrintedVersion;
import java.util.List;

/**
 * {@code cuda-arch-unsupported}: CUDA found no kernel of the NCCL build (or the framework's) for
 * this GPU's architecture ({@code Cuda failure 'named symbol not found'}, {@code 'no kernel image
 * is available for execution on the device'}, {@code 'invalid device function'}), or its kernels
 * ask for more shared memory than the GPU has ({@code ncclMaxSharedMem 82240 exceeds device/fn
 * maxSharedMem 79856}, NCCL 2.25 on sm_120).
 */
public final class CudaArchUnsupported extends WarningRule {

  public CudaArchUnsupported() {
    super(Severity.ERROR, NcclWarning.Kind.CUDA_ARCH);
  }

  @Override
  public String id() {
    return "cuda-arch-unsupported";
  }

  @Override
  String title() {
    return "The NCCL build has no kernels for this GPU's architecture";
  }

  @Override
  String explanation() {
    return "CUDA could not find NCCL's kernel for this GPU (cudaErrorSymbolNotFound, cudaErrorNoKernelImageForDevice or cudaErrorInvalidDeviceFunction): the library was compiled for other compute capabilities than the GPU's, typically an NCCL built from source with NVCC_GENCODE for an older GPU (sm_80 only, run on an H100, sm_90), or a build older than the GPU generation. Every collective fails the same way; no setting of NCCL changes it.";
  }

  /** The kernels asking for more shared memory than the GPU has: a release older than the GPU. */
  private static final String SHARED_MEMORY = "exceeds device/fn maxsharedmem";

  @Override
  String title(List<NcclWarning> hits) {
    return hits.stream().allMatch(forms().get(0)::saidBy)
        ? "This NCCL is older than the GPU: its kernels need more shared memory than the GPU gives"
        : title();
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            SHARED_MEMORY,
            "`ncclMaxSharedMem N exceeds device/fn maxSharedMem M` says this NCCL's kernels ask for more shared memory per block than this GPU gives: NCCL 2.25 on consumer Blackwell GPUs (sm_120, GeForce RTX 50xx, RTX PRO 6000), fixed in NCCL 2.26.2; every kernel launch then fails (`Cuda failure 1 'invalid argument'`).",
            "Use NCCL 2.26.2 or later (pip install -U nvidia-nccl-cu12, or a container whose NCCL is that recent; LD_PRELOAD or LD_LIBRARY_PATH can point a framework at a newer libnccl.so.2)."));
  }

  /**
   * CUDA 12.8 and 11.8 as CUDA numbers them: the first to compile for Blackwell, for Hopper/Ada.
   */
  private static final int BLACKWELL_CUDA = 12080;

  private static final int HOPPER_CUDA = 11080;

  /**
   * The CUDA of the NCCL build, where the log prints it ({@code NCCL version 2.14.3+cuda11.8}): a
   * build older than the GPU generation cannot hold its kernels, whatever NVCC_GENCODE asked.
   */
  @Override
  Context context(Job job, List<NcclWarning> hits) {
    if (hits.stream().allMatch(forms().get(0)::saidBy)) {
      return null;
    }
    PrintedVersion build =
        job.printed(PrintedVersion.Of.NCCL).stream()
            .filter(v -> v.cuda() > 0)
            .min(java.util.Comparator.comparingInt(PrintedVersion::cuda))
            .orElse(null);
    if (build == null || build.cuda() >= BLACKWELL_CUDA) {
      return null;
    }
    return new Context(
        "This NCCL "
            + build.version()
            + " was built with CUDA "
            + PrintedVersion.cudaText(build.cuda())
            + ": CUDA before 12.8 cannot compile for Blackwell GPUs (compute capability 10.x and 12.x: B200,"
            + " GB200, GeForce RTX 50xx, RTX PRO 6000)"
            + (build.cuda() < HOPPER_CUDA
                ? ", and before 11.8 not for Hopper or Ada (9.0 and 8.9: H100, H200, L40S, RTX 40xx)"
                : "")
            + ", so on such a GPU this build is the cause whatever its NVCC_GENCODE (NVIDIA's Blackwell and"
            + " Hopper compatibility guides); use a build for CUDA "
            + (build.cuda() < HOPPER_CUDA
                ? "11.8 or later (12.8 or later for Blackwell)"
                : "12.8 or later")
            + ".",
        List.of(build.evidence()));
  }

  @Override
  String fix() {
    return "Check the GPU's compute capability (nvidia-smi --query-gpu=compute_cap --format=csv) and rebuild NCCL with it in NVCC_GENCODE (e.g. -gencode=arch=compute_90,code=sm_90 beside the existing ones), or use a released NCCL (and framework) that supports this GPU generation.";
  }
}
