package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code nccl-not-built}: the job needs NCCL and the framework has none it can use: this PyTorch
 * build has no NCCL ({@code RuntimeError: Distributed package doesn't have NCCL built in}, {@code
 * Attempted to get default timeout for nccl backend, but NCCL support is not compiled}), or the
 * NCCL library it loads at run time is not there ({@code Unable to load NCCL library}, {@code
 * libnccl.so.2: cannot open shared object file}), or this TensorFlow has no NCCL kernels ({@code No
 * OpKernel was registered to support Op 'NcclAllReduce'}, {@code Op type not registered
 * 'NcclAllReduce'}), or a build found no NCCL headers or library ({@code fatal error: nccl.h: No
 * such file or directory}, CMake's {@code Could NOT find NCCL}, Horovod's {@code NCCL 2.0 library
 * or its later version was not found}).
 */
public final class NcclNotBuilt extends WarningRule {

  /** The words of the library that could not be loaded (XLA, vLLM, the dynamic loader). */
  private static final Form NOT_LOADABLE =
      new Form(
          List.of("load nccl library", "libnccl.so"),
          "The framework loads NCCL's shared library (libnccl.so.2) when it starts or at its first"
              + " collective, and the dynamic loader found none: not installed, or in a directory the"
              + " loader does not search. jaxlib 0.4.18 and later no longer bundle NCCL, so JAX's local-CUDA"
              + " install (jax[cuda12_local]) needs NCCL installed beside it; PyTorch's pip wheels take it from"
              + " the nvidia-nccl-cu11/cu12 wheel they depend on (installed with --no-deps, or removed, it is"
              + " gone); vLLM's pynccl looks for libnccl.so.2 (VLLM_NCCL_SO_PATH names another file). Multi-GPU"
              + " collectives cannot run.",
          "Install NCCL where the framework looks for it: pip install nvidia-nccl-cu12 (or -cu11, matching"
              + " the framework's CUDA; for jax[cuda12_local] nvidia-nccl-cu12>=2.19) or the distribution's"
              + " libnccl2 package, then check that the loader finds it (ldconfig -p | grep libnccl,"
              + " LD_LIBRARY_PATH holding its lib directory); or install the framework's bundled-CUDA variant"
              + " (jax[cuda12], a PyTorch wheel with its dependencies).");

  /** TensorFlow's words for an NCCL op it has no kernel, or no op, for. */
  private static final Form TENSORFLOW =
      new Form(
          List.of("op 'nccl", "registered 'nccl"),
          "TensorFlow runs NCCL through its own ops (NcclAllReduce, which tf.distribute's"
              + " MirroredStrategy uses by default for GPUs on one machine), and this TensorFlow has no"
              + " kernel for them: its Windows builds have none (NVIDIA publishes no NCCL for Windows;"
              + " tensorflow/tensorflow#21470), nor do its macOS and CPU-only builds (there the error's"
              + " 'Registered devices' lists no GPU). TensorFlow 1.x before 1.13 kept the NCCL ops in"
              + " tf.contrib.nccl, registered only once that module is imported.",
          "Use a cross-device all-reduce without NCCL where TensorFlow has none:"
              + " tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())"
              + " (or ReductionToOneDevice()); for NCCL run a GPU build of TensorFlow on Linux (pip install"
              + " tensorflow[and-cuda]; WSL2 on Windows) and check that"
              + " tf.config.list_physical_devices('GPU') lists the GPUs; on TensorFlow 1.x import"
              + " tensorflow.contrib.nccl before building the graph.");

  /**
   * A build's words for NCCL's headers or library it did not find (the compiler, CMake, Horovod).
   */
  private static final Form BUILD =
      new Form(
          List.of(
              "nccl.h: no such file",
              "could not find nccl",
              "nccl 2.0 library or its later version"),
          "The program is being built with NCCL (Horovod with HOROVOD_GPU_OPERATIONS=NCCL, or a GPU"
              + " build that includes nccl.h) and the build found no NCCL where it looked: the"
              + " compiler found no nccl.h, or CMake's FindNCCL found neither the headers nor"
              + " libnccl (NCCL_INCLUDE_DIR, NCCL_LIBRARY). NCCL's development files are not"
              + " installed (the libnccl-dev package, NVIDIA's tarball; the runtime library alone"
              + " has no headers), or they are in a directory the build does not search. Nothing"
              + " ran: no GPU, driver or network is involved.",
          "Install NCCL 2 with its headers (libnccl-dev, or NVIDIA's tarball) and point the build at"
              + " it: for Horovod HOROVOD_NCCL_HOME=/path/to/nccl (its include and lib directories),"
              + " or HOROVOD_NCCL_INCLUDE=/path/to/include and HOROVOD_NCCL_LIB=/path/to/lib, then"
              + " pip install --no-cache-dir horovod; for nccl-tests make NCCL_HOME=/path/to/nccl."
              + " Check with ls $HOROVOD_NCCL_INCLUDE/nccl.h and ls $HOROVOD_NCCL_LIB/libnccl*.");

  public NcclNotBuilt() {
    super(Severity.ERROR, NcclWarning.Kind.NCCL_NOT_BUILT);
  }

  @Override
  public String id() {
    return "nccl-not-built";
  }

  @Override
  List<Form> forms() {
    return List.of(NOT_LOADABLE, TENSORFLOW, BUILD);
  }

  /** Whether every line is of the form, so PyTorch's title and explanation do not apply. */
  private static boolean only(Form form, List<NcclWarning> hits) {
    return hits.stream().allMatch(form::saidBy);
  }

  /** Whether some line is PyTorch's own (of no other form). */
  private boolean pytorch(List<NcclWarning> hits) {
    return hits.stream().anyMatch(w -> forms().stream().noneMatch(f -> f.saidBy(w)));
  }

  @Override
  String title(List<NcclWarning> hits) {
    if (only(NOT_LOADABLE, hits)) {
      return "The NCCL library could not be loaded";
    }
    if (only(TENSORFLOW, hits)) {
      return "This TensorFlow has no NCCL";
    }
    if (only(BUILD, hits)) {
      return "The build found no NCCL headers or library";
    }
    return pytorch(hits) ? title() : "The framework has no NCCL it can use";
  }

  @Override
  String explanation(List<NcclWarning> hits) {
    if (pytorch(hits)) {
      return explanation();
    }
    if (only(BUILD, hits)) {
      return "The build needs NCCL and found none.";
    }
    return only(NOT_LOADABLE, hits)
        ? "The job needs NCCL for its GPU collectives and the framework has no NCCL library it can load."
        : "The job needs NCCL for its GPU collectives and the framework has none it can use.";
  }

  @Override
  String title() {
    return "This PyTorch has no NCCL";
  }

  @Override
  String explanation() {
    return "The job asked for the nccl backend (init_process_group(backend='nccl'), or a launcher or library that picks it for GPUs) and this PyTorch build has no NCCL compiled in, so it stopped before NCCL was ever loaded. PyTorch ships NCCL only in its CUDA builds for Linux: the Windows and macOS builds and the CPU-only wheels have none (torch.distributed.is_nccl_available() is False there). Nothing about the GPUs, the driver or the network is at fault.";
  }

  @Override
  String fix() {
    return "On Windows or macOS use the gloo backend (init_process_group(backend='gloo'); some tools take a --backend or dist_backend option), or run on Linux. On Linux install a CUDA build of PyTorch (pip install torch --index-url https://download.pytorch.org/whl/cu124 or another CUDA tag, not +cpu) and check python -c 'import torch; print(torch.cuda.is_available(), torch.distributed.is_nccl_available())'.";
  }
}
