package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;
import java.util.Locale;

/**
 * {@code gdrcopy-failed}: GDRCopy, which NCCL uses only when {@code NCCL_GDRCOPY_ENABLE=1}, failed:
 * its library did not load or lacks a symbol (misc/gdrwrap.cc: NCCL goes on without it), or a call
 * into the gdrdrv kernel module failed ({@code gdr_pin_buffer(addr ..., size ...) failed: -22}):
 * the allocation NCCL asked GDRCopy for fails, and the communicator's init with it.
 */
public final class GdrcopyFailed extends WarningRule {

  public GdrcopyFailed() {
    super(Severity.ERROR, NcclWarning.Kind.GDRCOPY);
  }

  @Override
  public String id() {
    return "gdrcopy-failed";
  }

  @Override
  String title() {
    return "GDRCopy failed (NCCL_GDRCOPY_ENABLE=1)";
  }

  @Override
  String explanation() {
    return "NCCL uses GDRCopy (NVIDIA's gdrcopy: libgdrapi.so and the gdrdrv kernel module, which let"
        + " the CPU map GPU memory) only when NCCL_GDRCOPY_ENABLE=1 is set; it is off by default."
        + " A gdr_pin_buffer, gdr_map or gdr_get_info call that fails (-22 is EINVAL) means gdrdrv"
        + " refused to pin or map the GPU memory: the module is not loaded or /dev/gdrdrv is not"
        + " passed into the container, the module and libgdrapi.so come from different gdrcopy"
        + " releases, the driver's nvidia_p2p interface refuses it (a GPU or driver without"
        + " GPUDirect RDMA: GeForce boards, some open-driver releases on Grace Hopper), and NCCL"
        + " fails the allocation and the communicator's init with it. gdr_unpin_buffer, gdr_unmap"
        + " and gdr_close failures come at teardown.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            List.of(
                "failed to open",
                "dlsym failed",
                "gdrcopy lib wrapper not initialized",
                "gdr_open()"),
            "Here NCCL could not load or open GDRCopy itself (libgdrapi.so not found, a symbol"
                + " missing from it, or /dev/gdrdrv not openable): NCCL goes on without GDRCopy, so"
                + " this costs only the latency GDRCopy would have saved.",
            "Install gdrcopy's library in the image (libgdrapi.so on the library path) and load"
                + " gdrdrv on the host (lsmod | grep gdrdrv; /dev/gdrdrv passed into the"
                + " container), or unset NCCL_GDRCOPY_ENABLE: NCCL runs without it."));
  }

  /**
   * An error where pinning, mapping or copying GPU memory failed (the allocation and the init with
   * it fail); a warning where only loading GDRCopy failed (NCCL goes on without it) or its
   * teardown.
   */
  @Override
  Severity severity(Job job, List<NcclWarning> hits) {
    return hits.stream().anyMatch(GdrcopyFailed::allocating) ? Severity.ERROR : Severity.WARN;
  }

  private static boolean allocating(NcclWarning w) {
    String m = w.message().toLowerCase(Locale.ROOT);
    return m.contains("gdr_pin_buffer(")
        || m.contains("gdr_map(")
        || m.contains("gdr_get_info(")
        || m.contains("gdr_copy_");
  }

  @Override
  String fix() {
    return "Check gdrcopy on the host: lsmod | grep gdrdrv, ls -l /dev/gdrdrv, and gdrcopy's own"
        + " gdrcopy_sanity and gdrcopy_copybw, which fail the same way when the module cannot pin"
        + " GPU memory; load a gdrdrv built for the running driver and kernel from the same gdrcopy"
        + " release as the image's libgdrapi.so, pass /dev/gdrdrv into the container, and look for"
        + " gdrdrv and NVRM lines in dmesg. Or unset NCCL_GDRCOPY_ENABLE (the default, 0): NCCL"
        + " then does without GDRCopy.";
  }
}
