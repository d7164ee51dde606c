package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.EnvSetting;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code no-transport}: no transport could connect two ranks ({@code No transport found for rank
 * 0[1b000] -> rank 8[1b000]}, transport.cc 2.5+; {@code No transport found !}, init.cu 2.3-2.4):
 * P2P, shared memory and the network each refused the pair, and init fails (ncclSystemError).
 */
public final class NoTransport extends WarningRule {

  /** The settings that turn a transport off for a pair of ranks on one host when set to 1. */
  private static final Set<String> SWITCHES =
      Set.of("NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE", "NCCL_NET_DISABLE_INTRA");

  /**
   * Whether this setting, as set, keeps a transport from ranks of one host or makes hosts one: a
   * switch at 1, an NCCL_P2P_LEVEL narrower than SYS (its widest, also written 5), any NCCL_HOSTID.
   * A switch at 0 or NCCL_P2P_LEVEL=SYS takes nothing away.
   */
  private static boolean refusing(EnvSetting e) {
    return switch (e.name()) {
      case "NCCL_P2P_LEVEL" -> !e.value().equalsIgnoreCase("SYS") && !e.value().equals("5");
      case "NCCL_HOSTID" -> true;
      default -> SWITCHES.contains(e.name()) && e.value().equals("1");
    };
  }

  public NoTransport() {
    super(Severity.ERROR, NcclWarning.Kind.NO_TRANSPORT);
  }

  @Override
  public String id() {
    return "no-transport";
  }

  @Override
  String title() {
    return "No transport could connect two ranks: P2P, shared memory and the network all refused";
  }

  @Override
  String explanation() {
    return "NCCL tries its transports in order for each pair of ranks it connects (P2P, then shared"
        + " memory, then the network) and fails init (ncclSystemError) when none accepts the pair."
        + " For two ranks on one host: P2P refuses when NCCL_P2P_DISABLE=1 or NCCL_P2P_LEVEL rules"
        + " out their path, or CUDA gives no peer access between the GPUs; shared memory refuses"
        + " when NCCL_SHM_DISABLE=1, or the two processes see different /dev/shm (separate"
        + " containers or pods on one node without a shared IPC namespace); the network refuses"
        + " ranks of one host when NCCL_NET_DISABLE_INTRA=1 (NCCL 2.12 on: set so that a broken"
        + " intra-node path fails instead of silently using the NIC) or when NCCL's topology"
        + " check finds it slower than the path between the two GPUs. Between hosts the network"
        + " always accepts (transport/net.cc's canConnect), so the two ranks are on one host as NCCL"
        + " counts hosts: the same host hash, from the hostname and the kernel's boot id, or from"
        + " NCCL_HOSTID where it is set (the same NCCL_HOSTID on several nodes makes them one host"
        + " to NCCL).";
  }

  @Override
  Context context(Job job, List<NcclWarning> hits) {
    List<String> set = new ArrayList<>();
    List<Evidence> lines = new ArrayList<>();
    for (EnvSetting e : job.env()) {
      if (refusing(e) && !set.contains(e.name() + "=" + e.value())) {
        set.add(e.name() + "=" + e.value());
        if (e.evidence() != null) {
          lines.add(e.evidence());
        }
      }
    }
    return set.isEmpty()
        ? null
        : new Context(
            "The log shows "
                + String.join(", ", set)
                + " set: each keeps a transport from ranks of one host, or (NCCL_HOSTID) makes"
                + " several hosts one.",
            lines);
  }

  @Override
  String fix() {
    return "Give the pair a transport back: unset NCCL_P2P_DISABLE and NCCL_SHM_DISABLE (setting both"
        + " leaves ranks of one host only the network), set NCCL_NET_DISABLE_INTRA=0 where the"
        + " ranks of one host may use the NIC, and run the ranks of one host in one container or"
        + " pod, or share the IPC namespace and /dev/shm between them (hostIPC, docker --ipc=host);"
        + " check peer access with nvidia-smi topo -p2p r.";
  }
}
