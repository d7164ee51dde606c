package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.List;

/** {@code nvls-error}: NVLink SHARP / multicast / fabric manager / IMEX failures. */
public final class NvlsError extends WarningRule {

  public NvlsError() {
    super(Severity.ERROR, NcclWarning.Kind.NVLS);
  }

  @Override
  public String id() {
    return "nvls-error";
  }

  @Override
  String title() {
    return "NVLink SHARP (NVLS) or fabric manager failure";
  }

  @Override
  String explanation() {
    return "NCCL failed to set up NVLink SHARP multicast objects or NVLink fabric state. On NVSwitch systems"
        + " (H100/H200/B200 HGX, GB200 NVL) this needs the NVIDIA fabric manager (and IMEX for multi-node NVLink)"
        + " running and healthy; CUDA error 802 \"system not yet initialized\" means the fabric manager is not up,"
        + " and \"Failed to bind NVLink SHARP (NVLS) Multicast memory ... CUDA error 401\" means the NVSwitch fabric"
        + " is in a bad state (a fabric manager or NVSwitch fault that a restart or power cycle clears)."
        + " Init fails, or NCCL runs without NVLS and loses bandwidth.";
  }

  /** The fabric manager's own start failure: no NVSwitch found is harmless where there is none. */
  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            List.of("nv_warn_nothing_to_do", "fabricmanager"),
            "The NVIDIA fabric manager service failed to start (its journal is cited):"
                + " NV_WARN_NOTHING_TO_DO means the NVSwitch driver found no NVSwitch. On a system"
                + " without NVSwitch (PCIe GPUs, NVLink bridges) the fabric manager is not needed and"
                + " its failure is harmless; on an NVSwitch system (HGX, DGX) CUDA then reports 802"
                + " 'system not yet initialized' and NCCL cannot use NVLink.",
            "On an NVSwitch system: the fabric manager's version must equal the driver's (nvidia-smi;"
                + " nv-fabricmanager --version), start it after the driver (systemctl enable --now"
                + " nvidia-fabricmanager) and read /var/log/fabricmanager.log; a restart of the fabric"
                + " manager needs the GPUs reset or the node rebooted. Without NVSwitch: disable the"
                + " service."));
  }

  /** Only the fabric manager finding no NVSwitch: a warning, harmless where there is none. */
  @Override
  Severity severity(Job job, List<NcclWarning> hits) {
    boolean nothingButNoSwitch =
        hits.stream()
            .allMatch(
                w ->
                    w.detail() instanceof NcclWarning.Detail.FabricManagerDown d
                        && (d.noSwitch() || !d.driverError()));
    boolean noSwitch =
        hits.stream()
            .anyMatch(
                w -> w.detail() instanceof NcclWarning.Detail.FabricManagerDown d && d.noSwitch());
    return nothingButNoSwitch && noSwitch ? Severity.WARN : Severity.ERROR;
  }

  /** The versions the fabric manager named when it refused the driver, with its lines. */
  @Override
  Context context(Job job, List<NcclWarning> hits) {
    if (refused(hits).isEmpty()) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    for (var v : refused(hits)) {
      b.append(" The fabric manager (built for driver ")
          .append(v.fabricManager())
          .append(") refused the loaded driver ")
          .append(v.driver())
          .append(
              ": it checks that the two versions are equal and exits before configuring the"
                  + " NVSwitches, so CUDA reports 802 'system not yet initialized' or collectives over"
                  + " NVLink hang.");
    }
    return new Context(b.toString().strip(), List.of());
  }

  /** Each refused driver's fix first: the fabric manager package of exactly that version. */
  @Override
  String fix(List<NcclWarning> hits) {
    List<NcclWarning> others =
        hits.stream()
            .filter(w -> !(w.detail() instanceof NcclWarning.Detail.FabricManagerVersion))
            .toList();
    String rest = others.isEmpty() ? "" : " " + super.fix(others);
    StringBuilder b = new StringBuilder();
    for (var v : refused(hits)) {
      b.append("Install the fabric manager of exactly the driver's version ")
          .append(v.driver())
          .append(" (apt-get install nvidia-fabricmanager-")
          .append(v.branch())
          .append('=')
          .append(v.driver())
          .append("-1, or dnf install nvidia-fabricmanager-")
          .append(v.driver())
          .append(
              "; hold it with apt-mark hold so an upgrade does not split them again), or the"
                  + " driver of the fabric manager's version ")
          .append(v.fabricManager())
          .append(
              "; then systemctl restart nvidia-fabricmanager and reset the GPUs or reboot." + " ");
    }
    return (b.toString().strip() + rest).strip();
  }

  /** The distinct version pairs of the fabric manager's refusals among these lines. */
  private static List<NcclWarning.Detail.FabricManagerVersion> refused(List<NcclWarning> hits) {
    return hits.stream()
        .map(NcclWarning::detail)
        .filter(NcclWarning.Detail.FabricManagerVersion.class::isInstance)
        .map(NcclWarning.Detail.FabricManagerVersion.class::cast)
        .distinct()
        .toList();
  }

  @Override
  String fix() {
    return "On the node: systemctl status nvidia-fabricmanager (and nvidia-imex for MNNVL), nvidia-smi -q | grep -A2"
        + " Fabric; restart the service or drain the node. To run meanwhile, NCCL_NVLS_ENABLE=0 disables NVLS at a"
        + " bandwidth cost.";
  }
}
