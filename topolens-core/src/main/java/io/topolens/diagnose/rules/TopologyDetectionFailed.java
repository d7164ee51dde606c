package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import java.util.List;

/**
 * {@code topology-detection-failed}: NCCL could not build its topology at init, from an XML file it
 * was given or from sysfs ({@code Attribute arch of node cpu not found}, {@code XML Import Channel
 * : dev 1 not found.}, {@code Could not find real path of /sys/class/pci_bus/...}, {@code Could not
 * find NET with id 0}).
 */
public final class TopologyDetectionFailed extends WarningRule {

  public TopologyDetectionFailed() {
    super(Severity.ERROR, NcclWarning.Kind.TOPOLOGY_DETECTION);
  }

  @Override
  public String id() {
    return "topology-detection-failed";
  }

  @Override
  String title() {
    return "NCCL could not build its topology (topology/graph XML or sysfs)";
  }

  @Override
  String explanation() {
    return "NCCL stopped at init while reading the machine's topology. `Attribute X of node Y not found` means a node of its topology XML lacks an attribute: the file given by NCCL_TOPO_FILE (set by hand, in /etc/nccl.conf, or by a network plugin's static file such as aws-ofi-nccl's p5.48xl-topo.xml) describes a CPU, NIC or PCI device incompletely, or sysfs showed a device that is not PCI (a USB network adapter). `XML Import Channel : dev N not found` means NCCL_GRAPH_FILE names a GPU this process does not have (a graph file for another machine size). `Could not find real path of /sys/class/pci_bus/...` means the GPU's PCI path is not in sysfs (WSL2, some VMs and containers).";
  }

  @Override
  List<Form> forms() {
    return List.of(
        new Form(
            " with id ",
            "`Could not find NET with id N` (graph/topo.h) says NCCL's graph search named a device its own topology does not hold: NCCL 2.25 fails this way on some clusters where 2.27 builds the same graph (a fault of that version), as does a topology file or network plugin that lists other NICs or GPUs than the node has.",
            "Upgrade NCCL (2.27 or later; a newer container or pip install -U nvidia-nccl-cu12), then rerun; if it persists, unset NCCL_TOPO_FILE and check the network plugin's topology against the node (NCCL_TOPO_DUMP_FILE writes what NCCL sees)."));
  }

  @Override
  String fix() {
    return "Unset NCCL_TOPO_FILE / NCCL_GRAPH_FILE (look in the environment, /etc/nccl.conf and ~/.nccl.conf) or give files written for this machine; upgrade a network plugin that ships a static topology file (aws-ofi-nccl 1.11+ generates it); where sysfs lacks the GPU's PCI path, run where /sys shows the devices (bare metal or a VM with PCI passthrough, not WSL2) or give NCCL_TOPO_FILE a topology of this machine.";
  }
}
