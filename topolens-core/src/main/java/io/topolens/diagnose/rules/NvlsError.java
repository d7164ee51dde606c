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
                    w.message().contains("NV_WARN_NOTHING_TO_DO")
                        || (w.message().contains("fabricmanager")
                            && !w.message().contains("failed with error:")));
    boolean noSwitch = hits.stream().anyMatch(w -> w.message().contains("NV_WARN_NOTHING_TO_DO"));
    return nothingButNoSwitch && noSwitch ? Severity.WARN : Severity.ERROR;
  }

  @Override
  String fix() {
    return "On the node: systemctl status nvidia-fabricmanager (and nvidia-imex for MNNVL), nvidia-smi -q | grep -A2"
        + " Fabric; restart the service or drain the node. To run meanwhile, NCCL_NVLS_ENABLE=0 disables NVLS at a"
        + " bandwidth cost.";
  }
}
