package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code gdrcopy-failed}: GDRCopy, which NCCL uses only when {@code NCCL_GDRCOPY_ENABLE=1}, failed:
 * its library did not load or lacks a symbol (misc/gdrwrap.cc: NCCL goes on without it), or a call
 * into the gdrdrv kernel module failed ({@code gdr_pin_buffer(addr ..., size ...) failed: 22}): the
 * allocation NCCL asked GDRCopy for fails, and the communicator's init with it.
 */
public final class GdrcopyFailed extends WarningRule {

  /**
   * A call into gdrdrv that pins, maps or copies GPU memory failed (gdrwrap.cc of 2.9-2.29, with
   * 2.29's v2 calls): the allocation NCCL asked GDRCopy for fails, and the init with it.
   */
  private static final Form ALLOCATION =
      new Form(
          List.of(
              "gdr_pin_buffer(",
              "gdr_pin_buffer_v2",
              "gdr_map(",
              "gdr_get_info(",
              "gdr_get_info_v2(",
              "gdr_copy_to_mapping(",
              "gdr_copy_from_mapping("),
          "Here gdrdrv refused to pin or map the GPU memory NCCL allocated (the number after"
              + " `failed:` is the errno libgdrapi returns, 22 for EINVAL, which dmesg's gdrdrv line"
              + " prints as -22): the module is not loaded or /dev/gdrdrv is not passed into the"
              + " container, the module and libgdrapi.so come from different gdrcopy releases, or"
              + " the driver's nvidia_p2p interface refuses it (a GPU or driver without GPUDirect"
              + " RDMA: GeForce boards, some open-driver releases on Grace Hopper); NCCL fails the"
              + " allocation and the communicator's init with it.",
          "Check gdrcopy on the host: lsmod | grep gdrdrv, ls -l /dev/gdrdrv, and gdrcopy's own"
              + " gdrcopy_sanity and gdrcopy_copybw, which fail the same way when the module cannot"
              + " pin GPU memory; load a gdrdrv built for the running driver and kernel from the same"
              + " gdrcopy release as the image's libgdrapi.so, pass /dev/gdrdrv into the container,"
              + " and look for gdrdrv and NVRM lines in dmesg. Or unset NCCL_GDRCOPY_ENABLE (the"
              + " default, 0): NCCL then does without GDRCopy.");

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
        + " gdr_unpin_buffer, gdr_unmap and gdr_close failures come at teardown; where 2.29's"
        + " gdr_driver_get_version() or gdr_get_attribute() fails, NCCL goes on without GDRCopy.";
  }

  @Override
  List<Form> forms() {
    return List.of(
        ALLOCATION,
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
    return hits.stream().anyMatch(ALLOCATION::saidBy) ? Severity.ERROR : Severity.WARN;
  }

  @Override
  String fix() {
    return "Teardown failures follow the end of the job or an earlier failure: read the lines before"
        + " them. Where these lines repeat on runs that otherwise work, check gdrdrv (lsmod | grep"
        + " gdrdrv, dmesg's gdrdrv lines, gdrcopy_sanity) or unset NCCL_GDRCOPY_ENABLE.";
  }
}
