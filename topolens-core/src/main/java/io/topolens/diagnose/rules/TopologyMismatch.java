package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;

/**
 * {@code topology-mismatch}: the ranks computed rings that do not join up ({@code ring N does not
 * loop back to start}).
 */
public final class TopologyMismatch extends WarningRule {

  public TopologyMismatch() {
    super(Severity.ERROR, NcclWarning.Kind.TOPOLOGY);
  }

  @Override
  public String id() {
    return "topology-mismatch";
  }

  @Override
  String title() {
    return "Ranks computed different rings";
  }

  @Override
  String explanation() {
    return "NCCL checks that the rings every rank computed join up; here a ring did not loop back to its start (or lacked a rank), so the ranks disagree on the topology or the search settings. Causes seen: settings that differ between ranks (NCCL_TOPO_FILE, NCCL_HOSTID, NCCL_ALGO, NCCL_MIN_NCHANNELS/NCCL_MAX_NCHANNELS, NCCL_P2P_LEVEL set on some nodes only), different NCCL versions, and NCCL 2.19's reading of PCI link speeds left uninitialised on some systems (fixed in 2.20).";
  }

  @Override
  String fix() {
    return "Run one NCCL version (2.20 or later) on every rank and set the NCCL_* topology and channel variables identically everywhere (compare the 'set by environment' lines); if NCCL_HOSTID is set, give every process on one host the same value and distinct hosts distinct values; NCCL_TOPO_DUMP_FILE on two ranks shows where their views differ.";
  }
}
