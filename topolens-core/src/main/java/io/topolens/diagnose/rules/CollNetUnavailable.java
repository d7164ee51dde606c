package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code collnet-unavailable}: CollNet (SHARP) could not start and NCCL fell back to the
 * point-to-point network ({@code Cannot initialize CollNet, using point-to-point network instead},
 * {@code SHARP coll init error}).
 */
public final class CollNetUnavailable extends WarningRule {

  public CollNetUnavailable() {
    super(Severity.WARN, NcclWarning.Kind.COLLNET);
  }

  @Override
  public String id() {
    return "collnet-unavailable";
  }

  @Override
  String title() {
    return "CollNet (SHARP) could not start";
  }

  @Override
  String explanation() {
    return "NCCL was asked for in-network reductions (CollNet, NCCL_COLLNET_ENABLE=1, through the SHARP plugin) and could not set them up: the SHARP plugin could not create its job or group (no SHARP-capable switches, the SHARP aggregation manager sharp_am not running beside the subnet manager, or its resources taken), so NCCL runs the collectives over the point-to-point network instead; a job that forces NCCL_ALGO=CollNet then has no algorithm at all.";
  }

  @Override
  String fix() {
    return "Check SHARP on the fabric (the switches support it; sharp_am runs with the subnet manager; sharp_hello or the SHARP plugin's own test passes) before setting NCCL_COLLNET_ENABLE=1; without SHARP leave CollNet off (and NCCL_ALGO unset).";
  }
}
