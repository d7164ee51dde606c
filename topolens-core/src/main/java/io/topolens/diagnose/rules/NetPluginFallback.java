package io.topolens.diagnose.rules;

import io.topolens.diagnose.Finding;
import io.topolens.diagnose.Rule;
import io.topolens.diagnose.Severity;
import io.topolens.model.Evidence;
import io.topolens.model.Job;
import io.topolens.model.NcclWarning;
import io.topolens.model.NetPluginEvent;
import io.topolens.model.NetPluginEvent.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code net-plugin-fallback}: a network plugin that was loaded or asked for (aws-ofi-nccl/EFA, an
 * external plugin, IB when NCCL_IB_HCA or NCCL_NET names it) failed or found no device, and the
 * process then used TCP sockets.
 */
public final class NetPluginFallback implements Rule {

  @Override
  public String id() {
    return "net-plugin-fallback";
  }

  @Override
  public List<Finding> check(Job job) {
    String ibDisable = job.envValue("NCCL_IB_DISABLE");
    boolean ibWanted =
        job.envValue("NCCL_IB_HCA") != null
            || "IB".equalsIgnoreCase(job.envValue("NCCL_NET"))
            || (ibDisable != null && ibDisable.strip().equals("0"));
    boolean pluginWanted = job.envValue("NCCL_NET_PLUGIN") != null;
    Map<String, List<NetPluginEvent>> byProcess = new LinkedHashMap<>();
    for (NetPluginEvent e : job.netPlugins()) {
      byProcess.computeIfAbsent(e.process(), k -> new ArrayList<>()).add(e);
    }
    Set<String> failedPlugins = new LinkedHashSet<>();
    List<NetPluginEvent> unloaded = new ArrayList<>();
    List<Evidence> evidence = new ArrayList<>();
    List<String> processes = new ArrayList<>();
    for (Map.Entry<String, List<NetPluginEvent>> p : byProcess.entrySet()) {
      List<NetPluginEvent> events = p.getValue();
      if (!anyFailure(events)) {
        continue; // most processes: nothing failed, so none of the tests below can count it
      }
      boolean requested =
          pluginWanted || events.stream().anyMatch(e -> e.outcome() == Outcome.REQUESTED);
      boolean external = events.stream().anyMatch(e -> e.outcome() == Outcome.LOADED);
      List<NetPluginEvent> failures =
          events.stream()
              .filter(
                  e ->
                      e.outcome() == Outcome.FAILED
                          || e.outcome() == Outcome.NO_DEVICE
                          || e.outcome() == Outcome.NOT_FOUND)
              .filter(e -> !e.plugin().equalsIgnoreCase("Socket"))
              .filter(
                  e ->
                      switch (e.outcome()) {
                        case NOT_FOUND -> requested;
                        default ->
                            e.plugin().equalsIgnoreCase("IB")
                                ? ibWanted
                                : (external
                                    || requested
                                    || e.plugin().equals("OFI")
                                    // a plugin library that is installed but did not load
                                    || e.plugin().endsWith(".so"));
                      })
              .toList();
      boolean socket =
          events.stream()
              .anyMatch(
                  e -> e.outcome() == Outcome.SELECTED && e.plugin().equalsIgnoreCase("Socket"));
      if (failures.isEmpty()) {
        continue;
      }
      if (!socket) {
        // an installed plugin library that did not load, and the log names no network after it:
        // NCCL said it uses its internal implementation, the fallback itself is not shown
        boolean chose = events.stream().anyMatch(e -> e.outcome() == Outcome.SELECTED);
        failures.stream()
            .filter(f -> !chose && f.outcome() == Outcome.FAILED && f.plugin().endsWith(".so"))
            .forEach(f -> unloaded.add(f));
        continue;
      }
      processes.add(p.getKey());
      if (evidence.size() < Finding.MAX_EVIDENCE) {
        // the plugin's own reasons (GDR disabled, an endpoint refused...) come first
        job.warnings().stream()
            .filter(w -> w.kind() == NcclWarning.Kind.NET_PLUGIN && w.evidence() != null)
            .filter(w -> w.process().equals(p.getKey()))
            .map(NcclWarning::evidence)
            .filter(e -> failures.stream().noneMatch(f -> f.evidence().equals(e)))
            .forEach(evidence::add);
        failures.forEach(f -> evidence.add(f.evidence()));
        events.stream()
            .filter(e -> e.outcome() == Outcome.SELECTED)
            .findFirst()
            .ifPresent(e -> evidence.add(e.evidence()));
      }
      failures.forEach(
          f ->
              failedPlugins.add(
                  f.plugin().equals("OFI") ? "aws-ofi-nccl (EFA/libfabric)" : f.plugin()));
    }
    if (processes.isEmpty()) {
      return unloaded.isEmpty() ? List.of() : List.of(unloaded(unloaded));
    }
    boolean efa =
        failedPlugins.stream()
            .anyMatch(
                p -> p.contains("ofi") || p.contains("Libfabric") || p.contains("libnccl-net"));
    String what = String.join(", ", failedPlugins);
    boolean ibNone =
        ibWanted
            && job.netPlugins().stream()
                .anyMatch(
                    e ->
                        processes.contains(e.process())
                            && e.outcome() == Outcome.NO_DEVICE
                            && e.plugin().equals("IB"));
    String explanation =
        "On "
            + processes.size()
            + " process(es) the network plugin "
            + what
            + " failed or found no device, and NCCL fell back to its TCP socket transport"
            + " (\"Using network Socket\"). Traffic between nodes then runs over the ordinary"
            + " Ethernet path through the kernel's TCP stack instead of "
            + (efa ? "EFA" : "RDMA")
            + (job.multiNode()
                ? "; this job spans nodes, so its collectives pay for it on every step."
                : "; this job's logs show one node, so only inter-node traffic would pay for it.")
            + (ibNone ? IB_NONE : "");
    String fix =
        efa
            ? "Check, in order: the pod requests EFA devices (resources.limits \"vpc.amazonaws.com/efa\": the"
                + " instance's EFA count, e.g. 4 on p4d.24xlarge, 1 on g6e.12xlarge); the EFA device plugin runs on"
                + " the node (kubectl -n kube-system get ds | grep efa); the image has libfabric with the efa provider"
                + " and aws-ofi-nccl (fi_info -p efa inside the pod must list the devices); the instance type supports"
                + " EFA and it was enabled at launch; the security group allows all traffic from itself (EFA needs a"
                + " self-referencing inbound and outbound rule)."
            : "Check the RDMA devices are visible in the container (ibv_devinfo), the RDMA device plugin grants them"
                + " to the pod, NCCL_IB_HCA names existing devices, and the plugin library named by NCCL_NET_PLUGIN is"
                + " installed.";
    return List.of(
        new Finding(
            id(),
            Severity.ERROR,
            "Network plugin " + what + " failed; NCCL fell back to TCP sockets",
            explanation,
            evidence,
            fix));
  }

  /**
   * What {@code NET/IB : No device found} means where IB was asked for (NVIDIA/nccl issue 958,
   * LLaMA-Factory issue 6111).
   */
  private static final String IB_NONE =
      " IB was asked for (NCCL_IB_HCA, NCCL_NET=IB or NCCL_IB_DISABLE=0 set), but NET/IB : No device"
          + " found says the verbs library gave NCCL no usable HCA: the RDMA stack is not installed or"
          + " not enabled on the host (ibv_devinfo lists nothing, or is missing), the NIC's port is"
          + " down, or the container was not given /dev/infiniband. NCCL's maintainer: the message"
          + " \"simply means the OS could not find a usable RoCE NIC\" (NVIDIA/nccl issue 958); in"
          + " LLaMA-Factory issue 6111 enabling RDMA on the machines ended the fallback.";

  private Finding unloaded(List<NetPluginEvent> failed) {
    Set<String> libraries = new LinkedHashSet<>();
    failed.forEach(f -> libraries.add(f.plugin()));
    return new Finding(
        id(),
        Severity.WARN,
        "Network plugin " + String.join(", ", libraries) + " is installed but did not load",
        "On "
            + failed.stream().map(NetPluginEvent::process).distinct().count()
            + " process(es) NCCL found the network plugin library but could not load it (the reason is"
            + " quoted: a missing symbol or library version, e.g. libfabric older than the plugin needs) and"
            + " went on with its internal implementation: IB if RDMA devices are visible, else TCP sockets."
            + " The log ends before NCCL names the network it chose, so the cost is not shown here; on EFA"
            + " instances the internal implementation means TCP.",
        failed.stream().map(NetPluginEvent::evidence).toList(),
        "Make the plugin loadable: install the libraries it was built against (for aws-ofi-nccl, the EFA"
            + " installer's libfabric at the version its release notes name; ldd on the plugin shows what is"
            + " missing) or remove the stale plugin from the library path; then the log must say Using network"
            + " AWS Libfabric (or the plugin's name).");
  }

  /** Whether a process's plugin events hold a failure of any kind (no device, not found). */
  private static boolean anyFailure(List<NetPluginEvent> events) {
    for (NetPluginEvent e : events) {
      if (e.outcome() == Outcome.FAILED
          || e.outcome() == Outcome.NO_DEVICE
          || e.outcome() == Outcome.NOT_FOUND) {
        return true;
      }
    }
    return false;
  }
}
