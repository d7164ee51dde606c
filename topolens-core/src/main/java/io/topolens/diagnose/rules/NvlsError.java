package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

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

  @Override
  String fix() {
    return "On the node: systemctl status nvidia-fabricmanager (and nvidia-imex for MNNVL), nvidia-smi -q | grep -A2"
        + " Fabric; restart the service or drain the node. To run meanwhile, NCCL_NVLS_ENABLE=0 disables NVLS at a"
        + " bandwidth cost.";
  }
}
